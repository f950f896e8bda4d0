// expect: runtime_error -- a body that cannot be turned into a string
fetch('https://api.example.com/items', { method: 'POST', body: { toString: () => { throw new Error('no text') } } });
