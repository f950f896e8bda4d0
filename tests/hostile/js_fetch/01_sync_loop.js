// expect: runtime_error -- loops forever while computing the call's arguments
fetch('https://api.example.com/items?n=' + (() => { for (;;) {} })());
