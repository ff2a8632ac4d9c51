# A compiler launcher like ccache or sccache, for the build tests: CMake runs
#   sh record-launcher.sh <log> <compiler> <args>...
# and it appends the command to <log> and runs it unchanged.
log=$1
shift
echo "$*" >>"$log"
exec "$@"
