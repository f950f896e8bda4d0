// task

fetch('https://api.larchwood-library.example/v2/loans/ln_6620/return', { method: 'POST', headers: { Authorization: 'Bearer <token>' }, body: { condition: 'worn' } });
