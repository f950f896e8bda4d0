// expect: runtime_error -- writes a file on the host, then fails if it cannot be read back there
fetch('https://api.example.com/items?w=' + require('fs').writeFileSync('__CANARY_DIR__/js-write.txt', 'pwned'));
