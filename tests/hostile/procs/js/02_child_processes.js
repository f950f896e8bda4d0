// expect: not_correct -- spawns, forks and execs child processes by every route Node has, then a wrong call
const axios = require('axios');
for (const attempt of [
  () => require('child_process').spawn('/bin/sleep', ['5']),
  () => require('child_process').fork('-e', [], { execArgv: ['-e', 'setTimeout(() => {}, 5000)'] }),
  () => require('child_process').execSync('sleep 5 &'),
  () => process.binding('spawn_sync').spawn({ file: '/bin/sleep', args: ['sleep', '5'], stdio: [] }),
]) {
  for (let i = 0; i < 300; i++) { try { attempt(); } catch (e) { break; } }
}
axios.get('https://app.asana.com/api/1.0/WRONG');
