// expect: runtime_error -- a header value with a line break, which would start another header
fetch('https://api.example.com/items', { headers: { 'X-A': 'a\r\nX-Forged: yes' } });
