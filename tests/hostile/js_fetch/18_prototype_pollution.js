// expect: runtime_error -- pollutes shared prototypes and fetch's globals for the programs that follow
fetch('https://api.example.com/items', { headers: { h: (Object.prototype.polluted = 'yes', Array.prototype.includes = () => true, globalThis.fetch = () => null, Headers.prototype.append = () => {}, String.prototype.toLowerCase = () => 'x', JSON.parse('{'), 'x') } });
