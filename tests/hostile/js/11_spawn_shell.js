// expect: runtime_error -- runs a shell command
require('child_process').execSync('touch __CANARY_DIR__/js-before-call');
axios.get('https://api.example.com/items', { params: { id: require('child_process').execSync('touch __CANARY_DIR__/js-shell; sleep 60 # __MARKER__').toString() } });
