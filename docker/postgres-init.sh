#!/bin/sh
# First start of the database: a role for Lampstand, and the role and schema Supabase Auth
# expects (it creates its own tables in `auth` at start).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<SQL
CREATE ROLE lampstand LOGIN PASSWORD '${LAMPSTAND_DB_PASSWORD}';
GRANT ALL ON DATABASE ${POSTGRES_DB} TO lampstand;
GRANT ALL ON SCHEMA public TO lampstand;
CREATE ROLE supabase_auth_admin LOGIN NOINHERIT CREATEROLE PASSWORD '${AUTH_DB_PASSWORD}';
CREATE SCHEMA auth AUTHORIZATION supabase_auth_admin;
GRANT CREATE ON DATABASE ${POSTGRES_DB} TO supabase_auth_admin;
ALTER ROLE supabase_auth_admin SET search_path = auth;
SQL
