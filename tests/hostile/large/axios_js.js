// A 3.5 MB JSON body, then a form of 200,000 keys (2.2 MB; axios records one of 400,000 as an object past the worker's 4 MiB answer), then an object of 5,000 keys in 70 KB.
axios.post('https://app.asana.com/api/1.0/tasks', { data: { notes: 'x'.repeat(3500000) } });
axios.post('https://app.asana.com/api/1.0/tasks', Array.from({ length: 200000 }, (_, i) => 'k' + i + '=1').join('&'), { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
axios.post('https://app.asana.com/api/1.0/tasks', Object.fromEntries(Array.from({ length: 5000 }, (_, i) => ['k' + i, 1])));
