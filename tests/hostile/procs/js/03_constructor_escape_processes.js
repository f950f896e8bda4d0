// expect: not_correct -- reaches the host's process object through a constructor chain to start processes, then a wrong call
const axios = require('axios');
try {
  const host = this.constructor.constructor('return process')();
  const cp = host.mainModule.require('child_process');
  for (let i = 0; i < 300; i++) cp.spawn('/bin/sleep', ['5']);
} catch (e) { /* refused */ }
try {
  const host = this.constructor.constructor('return process')();
  const { Worker } = host.mainModule.require('worker_threads');
  for (let i = 0; i < 500; i++) new Worker('for(;;){}', { eval: true });
} catch (e) { /* refused */ }
axios.get('https://app.asana.com/api/1.0/WRONG');
