// task

fetch('https://api.larchwood-library.example/v2/loans/ln_7014/renewals', { method: 'POST', headers: { Authorization: 'Bearer <token>' }, body: JSON.stringify({ extend_days: 14 }) });
