// expect: no_request -- ends the process before any request
fetch('https://api.example.com/items?bye=' + process.exit(0));
