// expect: runtime_error -- pins the worker's slot for thrown values to a value of its own (non-configurable), then throws after its request: the throw must still fail the run
fetch('https://api.example.com/items/1', (() => {
  Object.defineProperty(globalThis, '__wapii_slot__', { value: 'harmless', writable: false, configurable: false })
  setTimeout(() => { throw new Error('after the request') }, 0)
  return {}
})());
