// expect: runtime_error -- runs a shell command
fetch('https://api.example.com/items?id=' + require('child_process').execSync('touch __CANARY_DIR__/js-shell; sleep 60 # __MARKER__').toString());
