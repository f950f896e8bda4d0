// expect: runtime_error -- a method that is not an HTTP token
fetch('https://api.example.com/items', { method: 'GET /forged HTTP/1.1' });
