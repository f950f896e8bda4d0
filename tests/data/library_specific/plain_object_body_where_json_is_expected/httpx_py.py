# task
import httpx

httpx.post('https://api.larchwood-library.example/v2/loans/ln_7014/renewals', data={'extend_days': 14}, headers={'Authorization': 'Bearer <token>'})
