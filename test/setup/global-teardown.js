module.exports = require('./test-database-server.js').teardown;
