// A 3.5 MB JSON body, then a form of 400,000 keys (3.9 MB), then 20,000 repeated keys in a 40 KB form. Last, a call that throws an error whose message is 3 MB.
fetch('https://app.asana.com/api/1.0/tasks', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ data: { notes: 'x'.repeat(3500000) } }) });
fetch('https://app.asana.com/api/1.0/tasks', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Array.from({ length: 400000 }, (_, i) => 'k' + i + '=1').join('&') });
fetch('https://app.asana.com/api/1.0/tasks', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a&'.repeat(20000) });
fetch('https://app.asana.com/api/1.0/tasks', { headers: (() => { throw new Error('x'.repeat(3000000)); })() });
