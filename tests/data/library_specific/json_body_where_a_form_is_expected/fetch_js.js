// task

fetch('https://api.larchwood-library.example/v2/loans/ln_6620/return', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer <token>' }, body: JSON.stringify({ condition: 'worn' }) });
