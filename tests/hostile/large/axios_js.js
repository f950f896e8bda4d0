// A 3.5 MB JSON body, then a form of 200,000 keys (2.2 MB; axios records one of 400,000 as an object past the worker's 4 MiB answer), then an object of 5,000 keys in 70 KB. Last, a call that throws an error whose message is 3 MB.
axios.post('https://app.asana.com/api/1.0/tasks', { data: { notes: 'x'.repeat(3500000) } });
axios.post('https://app.asana.com/api/1.0/tasks', Array.from({ length: 200000 }, (_, i) => 'k' + i + '=1').join('&'), { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
axios.post('https://app.asana.com/api/1.0/tasks', Object.fromEntries(Array.from({ length: 5000 }, (_, i) => ['k' + i, 1])));
axios.get('https://app.asana.com/api/1.0/tasks', { params: { a: (() => { throw new Error('x'.repeat(3000000)); })() } });
