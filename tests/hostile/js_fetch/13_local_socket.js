// expect: runtime_error -- connects to a service on the host's loopback
fetch('https://api.example.com/items?s=' + require('net').connect(__CANARY_PORT__, '127.0.0.1').write('ping'));
