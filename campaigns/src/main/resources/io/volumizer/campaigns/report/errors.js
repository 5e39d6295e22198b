// First on the page: every script error and console.error is kept, for report --check to read back.
window.reportErrors = [];
window.addEventListener('error', function (e) { window.reportErrors.push(String(e.message || e.type) + (e.filename ? ' at ' + e.filename + ':' + e.lineno : '')); });
window.addEventListener('unhandledrejection', function (e) { window.reportErrors.push('unhandled rejection: ' + e.reason); });
(function (original) {
  console.error = function () { window.reportErrors.push(Array.prototype.join.call(arguments, ' ')); original.apply(console, arguments); };
})(console.error);
