// expect: runtime_error -- floods the worker's output with an enormous captured request
fetch('https://api.example.com/items', { headers: { h: 'x'.repeat(6e6) } });
