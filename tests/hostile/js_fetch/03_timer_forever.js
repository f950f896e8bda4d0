// expect: runtime_error -- issues its request, then keeps the run alive forever with an interval
fetch('https://api.example.com/items?t=' + (setInterval(() => {}, 5) && 1));
