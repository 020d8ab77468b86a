"""The demo gym and its scale generator: tenancy (orgs, staff, dev sign-ins), member/billing/class data, the
training half (programs, workouts, templates) and the members' training records; `seed.seed_demo` runs all."""
