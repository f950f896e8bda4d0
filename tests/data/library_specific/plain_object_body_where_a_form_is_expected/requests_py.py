# task
import requests

requests.post('https://api.larchwood-library.example/v2/loans/ln_6620/return', data={'condition': 'worn'}, headers={'Authorization': 'Bearer <token>'})
