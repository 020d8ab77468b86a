"""The tool list handed to the model for each role is exactly what TOOLS.md allows."""

from tools.catalog import build_registry

STAFF, OAC, OA, OACF = {"owner", "admin", "coach", "front_desk"}, {"owner", "admin", "coach"}, {"owner", "admin"}, {
    "owner", "admin", "coach", "front_desk"}

# router -> action -> (roles, confirm, inverse "router.action" or None)
EXPECTED: dict[str, dict[str, tuple[set[str], str, str | None]]] = {
    "read": {a: (STAFF, "never", None) for a in (
        "get_current_context", "programs_list", "members_search", "members_get", "exercises_search",
        "exercises_resolve_batch", "ask_user_to_pick", "search_anything", "lookup_by_id",
        "workout_comments_in_program", "workout_comments_for_assignment")},
    "workouts": {"create": (OAC, "never", "workouts.delete"), "update": (OAC, "never", None),
                 "set_sections": (OAC, "never", None), "delete": (OAC, "destructive", "workouts.restore"),
                 "restore": (OAC, "never", None)},
    "programs": {"create": (OA, "never", "programs.delete"), "update": (OA, "never", None),
                 "delete": (OA, "destructive", "programs.restore"), "enroll_member": (STAFF, "never", None),
                 "restore": (OA, "never", None)},
    "assignments": {"assign_personal": (OAC, "never", None), "update": (OAC, "never", None),
                    "set_published": (OAC, "never", None), "delete": (OAC, "destructive", "assignments.restore"),
                    "mark_comments_read": (OAC, "never", None), "bulk_preview": (OAC, "never", None),
                    "bulk_delete": (OAC, "destructive", "assignments.bulk_restore"),
                    "bulk_publish": (OAC, "always", "assignments.bulk_unpublish"),
                    **{a: (OAC, "never", None) for a in ("restore", "bulk_restore", "bulk_unpublish")}},
    "bookings": {a: (STAFF, "never", None) for a in ("list_mine", "attendance_summary", "attendance_trend")},
    "class_sessions": {"list_for_date": (STAFF, "never", None), "create": (OACF, "never", "class_sessions.cancel"),
                       "update": (OACF, "never", None), "publish": (OACF, "never", "class_sessions.unpublish"),
                       "unpublish": (OACF, "never", None), "cancel": (OA, "destructive", "class_sessions.restore"),
                       "bulk_preview": (OA, "never", None),
                       "bulk_delete": (OA, "destructive", "class_sessions.bulk_restore"),
                       "bulk_publish": (OA, "always", "class_sessions.bulk_unpublish"),
                       **{a: (OA, "never", None) for a in ("restore", "bulk_restore", "bulk_unpublish")}},
    "class_types": {"list_for_program": (STAFF, "never", None)},
    "analytics": {**{a: (OA, "never", None) for a in ("revenue_summary", "revenue_trend", "plan_distribution",
                                                       "coach_overview")},
                  **{a: (OAC, "never", None) for a in ("members_summary", "members_growth", "at_risk_members",
                                                        "members_activation", "popular_classes", "class_utilization",
                                                        "org_insights", "workouts_summary")}},
    "tasks": {"list": (STAFF, "never", None), "create": (STAFF, "never", "tasks.delete"),
              "update": (STAFF, "never", None), "complete": (STAFF, "never", None),
              "delete": (STAFF, "destructive", "tasks.restore"), "restore": (STAFF, "never", None)},
    "program_templates": {"list": (OAC, "never", None), "create": (OAC, "never", None),
                          "apply": (OAC, "always", None), "from_history": (OAC, "always", None)},
    "forms": {a: (OACF, "never", None) for a in ("list_pending_for_org", "compliance_status_for_member")},
}
# TOOLS.md "The front desk's work" (issue 42): bookings, check-ins, freezes and messages to members.
OAF = {"owner", "admin", "front_desk"}
DESK: dict[str, dict[str, tuple[set[str], str, str | None]]] = {
    "bookings": {"book_member": (STAFF, "never", "bookings.cancel_booking"),
                 "cancel_booking": (STAFF, "never", "bookings.book_member"),
                 "join_waitlist": (STAFF, "never", "bookings.leave_waitlist"),
                 "leave_waitlist": (STAFF, "never", "bookings.join_waitlist"),
                 "check_in": (STAFF, "never", "bookings.undo_check_in"), "undo_check_in": (STAFF, "never", None)},
    "memberships": {"freeze": (OAF, "always", "memberships.unfreeze"),
                    "unfreeze": (OAF, "always", "memberships.freeze")},
    "messages": {"draft": (STAFF, "never", "messages.discard"), "discard": (STAFF, "never", None),
                 "send": (STAFF, "always", None), "status": (STAFF, "never", None)},
}
DESK_READS = {"messages__status"}

# TRAINER.md "Staff side" (listed in TOOLS.md's read table): the member's training record, O A C.
EXPECTED["read"]["member_training"] = (OAC, "never", None)

# TRAINER.md "Tools": the member's trainer, role member only (never offered to staff).
M = {"member"}
MEMBER_TOOLS: dict[str, dict[str, tuple[set[str], str, str | None]]] = {
    "coach": {a: (M, "never", None) for a in ("message_notify_user", "message_ask_user", "idle")},
    "data": {"fetch_data": (M, "never", None)},
    "goals": {a: (M, "never", None) for a in ("set_goals", "create_milestone", "update_milestone")},
    "prefs": {"set_preference": (M, "never", "prefs.delete_preference"), "delete_preference": (M, "never", None)},
    "logbook": {"log_completed_exercise": (M, "never", "logbook.undo_logged_exercise"),
                "undo_logged_exercise": (M, "never", None), "mark_exercise_complete": (M, "never", None),
                "log_workout": (M, "never", None)},
    "timers": {a: (M, "never", None) for a in ("generate_exercise_timer", "generate_workout_timers")},
    "calendar": {"schedule_workout": (M, "never", "calendar.delete_scheduled_workout"),
                 "update_scheduled_workout": (M, "never", None),
                 "delete_scheduled_workout": (M, "destructive", None), "create_workout_plan": (M, "never", None)},
    "stats": {a: (M, "never", None) for a in ("get_workout_statistics", "get_exercise_breakdown",
                                                "get_progress_trends", "generate_stats_summary")},
    "workout": {a: (M, "never", None) for a in ("generate_workout", "swap_exercise", "adjust_exercise",
                                                  "remove_exercise", "add_exercise_to_workout")},
    "location": {"set_current_location": (M, "never", None)},
}
MEMBER_READS = {"coach", "data", "stats", "timers"}

# NUTRITION.md "Staff and trainer tools": the nutrition pipeline's staff router (front desk sees no health
# data anywhere: NUTRITION.md "Who uses it").
NUTRITION_TOOLS: dict[str, dict[str, tuple[set[str], str, str | None]]] = {
    "nutrition": {"start_run": (OAC, "always", None), "get_plan": (OAC, "never", None),
                  "submit_checkin": (OAC, "never", None), "record_medical_clearance": (OA, "always", None)}}


def test_seventy_three_actions_in_eleven_routers() -> None:
    """TOOLS.md's 63 actions plus read.member_training from TRAINER.md, plus the 9 inverses that undo a soft
    delete or a bulk publish (issue 27: restore within 24 hours, unpublish exactly what was published)."""
    assert len(EXPECTED) == 11
    assert sum(len(actions) for actions in EXPECTED.values()) == 73


def test_the_front_desks_twelve_actions_match_the_table() -> None:
    registry = build_registry()
    assert sum(len(actions) for actions in DESK.values()) == 12
    for router, actions in DESK.items():
        for action, (roles, confirm, inverse) in actions.items():
            spec = registry.lookup(router, action)
            assert spec is not None, f"{router}__{action}"
            assert (set(spec.roles), spec.confirm) == (roles, confirm), spec.name
            assert (f"{spec.inverse.router}.{spec.inverse.action}" if spec.inverse else None) == inverse, spec.name
            assert spec.side_effects == ("read" if spec.name in DESK_READS else "write"), spec.name
            assert spec.side_effects == "read" or spec.audit is not None, spec.name


def test_the_nutrition_tools_match_nutrition_md() -> None:
    registry = build_registry()
    for action, (roles, confirm, inverse) in NUTRITION_TOOLS["nutrition"].items():
        spec = registry.lookup("nutrition", action)
        assert spec is not None, action
        assert (set(spec.roles), spec.confirm, spec.inverse) == (roles, confirm, inverse), spec.name
        assert spec.side_effects == ("read" if action == "get_plan" else "write"), spec.name
    assert registry.lookup("nutrition", "record_medical_clearance").audit is not None


def test_twenty_nine_member_actions_in_ten_routers() -> None:
    """TRAINER.md's 28 plus workout.add_exercise_to_workout (issue 24 item 7)."""
    assert len(MEMBER_TOOLS) == 10
    assert sum(len(actions) for actions in MEMBER_TOOLS.values()) == 29


def test_member_tools_match_trainer_md() -> None:
    registry = build_registry()
    for router, actions in MEMBER_TOOLS.items():
        for action, (roles, confirm, inverse) in actions.items():
            spec = registry.lookup(router, action)
            assert spec is not None, f"{router}__{action}"
            assert set(spec.roles) == roles and spec.confirm == confirm, spec.name
            assert (f"{spec.inverse.router}.{spec.inverse.action}" if spec.inverse else None) == inverse, spec.name
            assert spec.side_effects == ("read" if router in MEMBER_READS else "write"), spec.name


def test_registry_matches_tools_md_exactly() -> None:
    registry = build_registry()
    expected_names = {f"{r}__{a}" for r, actions in EXPECTED.items() for a in actions}
    member_names = {f"{r}__{a}" for r, actions in MEMBER_TOOLS.items() for a in actions}
    nutrition_names = {f"{r}__{a}" for r, actions in NUTRITION_TOOLS.items() for a in actions}
    desk_names = {f"{r}__{a}" for r, actions in DESK.items() for a in actions}
    assert set(registry.specs) == expected_names | member_names | nutrition_names | desk_names
    for router, actions in EXPECTED.items():
        for action, (roles, confirm, inverse) in actions.items():
            spec = registry.lookup(router, action)
            assert spec is not None
            assert set(spec.roles) == roles, spec.name
            assert spec.confirm == confirm, spec.name
            assert (f"{spec.inverse.router}.{spec.inverse.action}" if spec.inverse else None) == inverse, spec.name
            reads = router in ("read", "bookings", "class_types", "analytics", "forms") or action in (
                "list", "list_for_date", "bulk_preview")
            assert spec.side_effects == ("read" if reads else "write"), spec.name


def test_each_role_sees_exactly_its_tools() -> None:
    registry = build_registry()
    for role in ("owner", "admin", "coach", "front_desk", "member"):
        expected = {f"{r}__{a}" for table in (EXPECTED, MEMBER_TOOLS, NUTRITION_TOOLS, DESK)
                    for r, actions in table.items() for a, (roles, _, _) in actions.items() if role in roles}
        assert {spec.name for spec in registry.for_role(role)} == expected, role
