"""The one change the harness makes to Nova's functional tests.

Nova's tests get their placement from upstream's
``placement.tests.functional.fixtures.placement.PlacementFixture`` (directly, or through
``nova.tests.functional.fixtures.PlacementFixture``, which subclasses it and only adds the
HTTP client pointed at ``self.endpoint``). Its ``setUp`` builds an in-memory database and
installs a wsgi-intercept of the WSGI app; ``install`` swaps that ``setUp`` for one that
does the same configuration work but, instead of the database and the intercept, points
``endpoint`` at a real server over HTTP that the runner started on a fresh database.

Which server: one per fixture that brings its own database (``db=True``, the default), as
the shipped fixture gives each such fixture a fresh database. A fixture opened with
``db=False`` uses a database the test manages itself through its own conf fixture, and
every such fixture over the same configuration must see the same data, so they share one
server for the rest of the test (``test_bug_1679750`` opens two in a row).
"""

import fixtures
from oslo_config import cfg
from oslo_config import fixture as config_fixture
from oslo_policy import opts as policy_opts

from placement import conf
from placement.tests.functional.fixtures import placement as shipped
from placement.tests.unit import policy_fixture


class _Endpoints:
    """Servers handed to the running test, by the configuration that owns their data."""

    def __init__(self, acquire):
        self._acquire = acquire
        self._by_conf = {}

    def new_test(self):
        self._by_conf.clear()

    def fresh(self):
        return self._acquire()

    def shared(self, conf_object):
        key = id(conf_object)
        if key not in self._by_conf:
            # Keep the object alive so its id is not reused by another one within the test.
            self._by_conf[key] = (conf_object, self._acquire())
        return self._by_conf[key][1]


def install(acquire):
    """Replace the shipped fixture's setUp. ``acquire()`` returns a fresh server's base URL."""
    endpoints = _Endpoints(acquire)

    def setUp(self):
        fixtures.Fixture.setUp(self)
        if not self.conf_fixture:
            self.conf_fixture = self.useFixture(config_fixture.Config(cfg.ConfigOpts()))
        if self.register_opts:
            conf.register_opts(self.conf_fixture.conf)
        if self.db:
            # The shipped fixture's database is not made: the server has its own. The option
            # is required when the configuration is parsed below; nothing here opens it.
            self.conf_fixture.config(group='placement_database', connection='sqlite://')
        policy_opts.set_defaults(self.conf_fixture.conf)
        self.conf_fixture.config(group='api', auth_strategy='noauth2')
        self.conf_fixture.conf([], default_config_files=[])
        self.useFixture(policy_fixture.PolicyFixture(self.conf_fixture))
        if self.use_intercept:
            if self.db:
                self.endpoint = endpoints.fresh()
            else:
                self.endpoint = endpoints.shared(self.conf_fixture.conf)

    shipped.PlacementFixture.setUp = setUp
    return endpoints
