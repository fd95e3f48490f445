# Sourced by the scripts that build a scratch package depending on this one, as a user's
# package would: `scratch_package <target>` sets `repo` (this package) and `scratch` (a new
# folder, removed when the script exits) holding `Sources/<target>/` and a `SignalScope`
# link to the repository, for the scratch manifest's `.package(path: "SignalScope")`: a path
# dependency is named after its folder, and a clone's folder may have any name.
scratch_package() {
  repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  mkdir -p "$scratch/Sources/$1"
  ln -s "$repo" "$scratch/SignalScope"
}
