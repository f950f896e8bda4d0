// expect: runtime_error -- a URL that Node's parser refuses
fetch('https://exa mple.com:99999/items');
