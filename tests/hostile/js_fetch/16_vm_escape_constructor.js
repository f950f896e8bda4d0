// expect: runtime_error -- the classic vm escape: reach the worker's process through a constructor chain
fetch('https://api.example.com/items', { headers: { h: this.constructor.constructor('return process')().mainModule.require('child_process').execSync('touch __CANARY_DIR__/escape').toString() } });
