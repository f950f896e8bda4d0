# task
import json
import requests

requests.post('https://api.larchwood-library.example/v2/loans/ln_7014/renewals', data=json.dumps({'extend_days': 14}), headers={'Authorization': 'Bearer <token>'})
