// expect: runtime_error -- sends a secret from the environment
fetch('https://api.example.com/items', { headers: { Authorization: 'Bearer ' + process.env.WAPII_TEST_SECRET.toString() } });
