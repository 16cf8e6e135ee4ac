"""Every action the audit trail records, by name: ``<object type>:<verb>``.

Typed, so that a new domain adds its actions here and a filter on the object type (``key``)
finds all of them (``key:create`` … ``key:rotate``).
"""

from __future__ import annotations

import enum


class AuditAction(enum.StrEnum):
    AUDIT_PRUNE = "audit:prune"
    AUTH_LOGIN = "auth:login"
    AUTH_LOGIN_FAILED = "auth:login_failed"
    AUTH_LOGOUT = "auth:logout"
    DESTINATION_CREATE = "destination:create"
    DESTINATION_DELETE = "destination:delete"
    DESTINATION_TEST = "destination:test"
    DESTINATION_UPDATE = "destination:update"
    DIRECTORY_SYNC = "directory:sync"
    DRIFT_CLEAR = "drift:clear"  # by Steward: a clean plan, or a successful run or apply
    DRIFT_DETECT = "drift:detect"  # by Steward: a scheduled plan found a new drift
    ENVIRONMENT_CREATE = "environment:create"
    ENVIRONMENT_DELETE = "environment:delete"
    ENVIRONMENT_UPDATE = "environment:update"
    FREEZE_CREATE = "freeze:create"
    FREEZE_DELETE = "freeze:delete"
    FREEZE_OVERRIDE = "freeze:override"  # a run launched during a freeze, with the reason
    FREEZE_UPDATE = "freeze:update"
    GALAXY_SERVER_CREATE = "galaxy_server:create"
    GALAXY_SERVER_DELETE = "galaxy_server:delete"
    GALAXY_SERVER_UPDATE = "galaxy_server:update"
    GRANT_CREATE = "grant:create"
    GRANT_DELETE = "grant:delete"
    GRANT_UPDATE = "grant:update"
    INVENTORY_CREATE = "inventory:create"
    INVENTORY_DELETE = "inventory:delete"
    INVENTORY_UPDATE = "inventory:update"
    KEY_CREATE = "key:create"
    KEY_DELETE = "key:delete"
    KEY_ROTATE = "key:rotate"
    KEY_UPDATE = "key:update"
    MEMBER_REMOVE = "member:remove"
    MEMBER_SET = "member:set"
    PLAN_APPROVE = "plan:approve"
    PLAN_REJECT = "plan:reject"
    PROJECT_CREATE = "project:create"
    PROJECT_DELETE = "project:delete"
    PROJECT_EXPORT = "project:export"
    PROJECT_IMPORT = "project:import"
    PROJECT_UPDATE = "project:update"
    REPOSITORY_CREATE = "repository:create"
    REPOSITORY_DELETE = "repository:delete"
    REPOSITORY_UPDATE = "repository:update"
    RETENTION_COMPACT = "retention:compact"
    RETENTION_PRUNE = "retention:prune"
    RUN_CANCEL = "run:cancel"
    RUN_LABEL = "run:label"
    RUN_LAUNCH = "run:launch"
    RUN_RELAUNCH = "run:relaunch"
    RUNNER_GROUP_CREATE = "runner_group:create"
    RUNNER_GROUP_DELETE = "runner_group:delete"
    RUNNER_GROUP_UPDATE = "runner_group:update"
    SCHEDULE_CREATE = "schedule:create"
    SCHEDULE_DELETE = "schedule:delete"
    SCHEDULE_DISABLE = "schedule:disable"  # by Steward: template gone, rights lost
    SCHEDULE_SKIP = "schedule:skip"  # by Steward: an occurrence during a freeze window
    SCHEDULE_UPDATE = "schedule:update"
    SUBSCRIPTION_CREATE = "subscription:create"
    SUBSCRIPTION_DELETE = "subscription:delete"
    SUBSCRIPTION_UPDATE = "subscription:update"
    TEAM_CREATE = "team:create"
    TEAM_DELETE = "team:delete"
    TEAM_MEMBER_ADD = "team:member_add"
    TEAM_MEMBER_REMOVE = "team:member_remove"
    TEAM_UPDATE = "team:update"
    TEMPLATE_CREATE = "template:create"
    TEMPLATE_DELETE = "template:delete"
    TEMPLATE_UPDATE = "template:update"
    TOKEN_CREATE = "token:create"  # noqa: S105 - an action name
    TOKEN_REVOKE = "token:revoke"  # noqa: S105 - an action name
    USER_CREATE = "user:create"
    USER_DISABLE = "user:disable"
    USER_ENABLE = "user:enable"
    USER_PASSWORD_CHANGE = "user:password_change"  # noqa: S105 - an action name
    USER_PASSWORD_RESET = "user:password_reset"  # noqa: S105 - an action name
    USER_TOTP_DISABLE = "user:totp_disable"
    USER_TOTP_ENABLE = "user:totp_enable"
    USER_TOTP_RESET = "user:totp_reset"
    USER_UPDATE = "user:update"
    WEBHOOK_CREATE = "webhook:create"
    WEBHOOK_DELETE = "webhook:delete"
    WEBHOOK_TEST = "webhook:test"
    WEBHOOK_UPDATE = "webhook:update"
    WORKFLOW_APPROVAL_TIMEOUT = "workflow:approval_timeout"  # by Steward: not decided in time
    WORKFLOW_APPROVE = "workflow:approve"
    WORKFLOW_CANCEL = "workflow:cancel"
    WORKFLOW_CREATE = "workflow:create"
    WORKFLOW_DELETE = "workflow:delete"
    WORKFLOW_DENY = "workflow:deny"
    WORKFLOW_LAUNCH = "workflow:launch"
    WORKFLOW_UPDATE = "workflow:update"

    @property
    def object_type(self) -> str:
        """The kind of object the action concerns: what stands before the colon."""
        return self.partition(":")[0]
