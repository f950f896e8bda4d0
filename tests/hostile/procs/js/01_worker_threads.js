// expect: not_correct -- starts worker_threads until refused, each one spinning, then calls a wrong URL
const axios = require('axios');
let started = 0;
try {
  const { Worker } = require('worker_threads');
  for (let i = 0; i < 2000; i++) { new Worker('setInterval(() => {}, 1000)', { eval: true }); started++; }
} catch (e) { /* refused */ }
const until = Date.now() + 1500; while (Date.now() < until) {}
axios.get('https://app.asana.com/api/1.0/WRONG');
