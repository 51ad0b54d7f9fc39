module.exports = require('./test-database-server.js').setup;
