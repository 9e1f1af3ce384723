from annotation.people.roles import permissions_of, role_of


def role(request):
    """Expose the signed-in person's role and permissions to every template (navigation)."""
    user = getattr(request, "user", None)
    return {"current_role": role_of(user), "perms_wozsql": permissions_of(user) if role_of(user) else frozenset()}
