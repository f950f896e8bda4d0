// expect: runtime_error -- allocates outside the heap (stopped by RLIMIT_AS, not by --max-old-space-size)
fetch('https://api.example.com/items', { method: 'POST', body: JSON.stringify(Array.from({ length: 16 }, () => new Uint8Array(2 ** 30).fill(1).length)) });
