# task
import json
import aiohttp

async with aiohttp.ClientSession() as session:
    async with session.post('https://api.larchwood-library.example/v2/loans/ln_7014/renewals', data=json.dumps({'extend_days': 14}), headers={'Authorization': 'Bearer <token>'}) as response:
        pass
