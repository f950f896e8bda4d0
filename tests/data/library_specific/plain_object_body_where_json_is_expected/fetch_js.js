// task

fetch('https://api.larchwood-library.example/v2/loans/ln_7014/renewals', { method: 'POST', headers: { Authorization: 'Bearer <token>' }, body: { extend_days: 14 } });
