# Sourced by the scripts that build something once and keep it between runs
# (PostgreSQL versions, Citus): sets FJ_CACHE to a folder outside the clone.
# FJ_CACHE from the environment wins; else /var/cache/fastjson when it can be
# written (CI runs as root), else ~/.cache/fastjson.
if [ -z "${FJ_CACHE:-}" ]; then
	if mkdir -p /var/cache/fastjson 2>/dev/null && [ -w /var/cache/fastjson ]; then
		FJ_CACHE=/var/cache/fastjson
	else
		FJ_CACHE=$HOME/.cache/fastjson
	fi
fi
mkdir -p "$FJ_CACHE"
# The postgres user must reach installations inside it.
chmod 755 "$FJ_CACHE" 2>/dev/null || true
export FJ_CACHE
