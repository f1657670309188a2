# bash completion for wingen(1).  Written by "wingen completion bash"
# from wingen's own tables of commands and options: do not edit it, make
# it again (cmake --build build --target generated-docs).  Installed by
# cmake --install into share/bash-completion/completions; or:
#   source <(wingen completion bash)

_wingen_words()	# _wingen_words "WORD...": those matching $cur
{
	COMPREPLY=($(compgen -W "$1" -- "$cur"))
}

_wingen_files()	# _wingen_files -f|-d: file (or folder) names
{
	COMPREPLY=($(compgen "$1" -- "$cur"))
	compopt -o filenames 2>/dev/null
}

# --retarget OLD=NEW: a release of the catalogue, "=", then the build
# of the profile it moves to (a release name too).
_wingen_retarget()
{
	local w to=
	if [ "$old" ]; then
		for w in $_wingen_releases; do	# not to itself
			[ "$w" = "$old" ] || to+=" $w"
		done
		_wingen_words "$to"
		return
	fi
	_wingen_words "$_wingen_releases"
	COMPREPLY=("${COMPREPLY[@]/%/=}")
	compopt -o nospace 2>/dev/null
}

_wingen_commands="build post-render builds check fn fmt init migrate runtimeclasses completion schema serve version help"
_wingen_releases="ltsc2016 1607 2016 1709 1803 ltsc2019 1809 2019 1903 1909 2004 20H2 ltsc2022 2022 21H2 23H2 ltsc2025 2025 24H2"

_wingen()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmd= opt old= i

	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		_wingen_words "$_wingen_commands --help --version"
		return
	fi
	# The option this word is the value of.  bash splits words at "=":
	# --output=json is "--output" "=" "json", OLD=NEW "OLD" "=" "NEW".
	opt=$prev
	if [ "$cur" = = ]; then
		cur= opt=$prev prev==
		i=$((COMP_CWORD - 1))
	else
		i=$((COMP_CWORD - 1))
		[ "$prev" = = ] && { i=$((COMP_CWORD - 2)); opt=${COMP_WORDS[i]}; }
	fi
	if [ "$prev" = = ] && [ "${COMP_WORDS[i-1]}" = --retarget ]; then
		old=${COMP_WORDS[i]} opt=--retarget
	fi

	# An option's value.
	case "$cmd $opt" in
	"build -f"|"build --filename")
		_wingen_files -f
		return ;;
	"build -k"|"build --kustomize")
		_wingen_files -d
		return ;;
	"build -o"|"build --output")
		_wingen_words "yaml json"
		return ;;
	"build --output-file")
		_wingen_files -f
		return ;;
	"build -j"|"build --jobs")
		COMPREPLY=()
		return ;;
	"build --nodes")
		_wingen_files -f
		return ;;
	"build --templates")
		_wingen_files -d
		return ;;
	"build --load-restrictor")
		_wingen_words "rootonly none"
		return ;;
	"build --retarget")
		_wingen_retarget
		return ;;
	"post-render -o"|"post-render --output")
		_wingen_words "yaml json"
		return ;;
	"post-render --output-file")
		_wingen_files -f
		return ;;
	"post-render -j"|"post-render --jobs")
		COMPREPLY=()
		return ;;
	"post-render --nodes")
		_wingen_files -f
		return ;;
	"post-render --templates")
		_wingen_files -d
		return ;;
	"post-render --load-restrictor")
		_wingen_words "rootonly none"
		return ;;
	"post-render --retarget")
		_wingen_retarget
		return ;;
	"builds -o"|"builds --output")
		_wingen_words "table json"
		return ;;
	"builds --output-file")
		_wingen_files -f
		return ;;
	"check -f"|"check --filename")
		_wingen_files -f
		return ;;
	"check -k"|"check --kustomize")
		_wingen_files -d
		return ;;
	"check -o"|"check --output")
		_wingen_words "text json sarif"
		return ;;
	"check --output-file")
		_wingen_files -f
		return ;;
	"check --nodes")
		_wingen_files -f
		return ;;
	"check --templates")
		_wingen_files -d
		return ;;
	"check --load-restrictor")
		_wingen_words "rootonly none"
		return ;;
	"check --retarget")
		_wingen_retarget
		return ;;
	"fmt -f"|"fmt --filename")
		_wingen_files -f
		return ;;
	"fmt -k"|"fmt --kustomize")
		_wingen_files -d
		return ;;
	"fmt -o"|"fmt --output")
		_wingen_words "yaml json"
		return ;;
	"fmt --output-file")
		_wingen_files -f
		return ;;
	"fmt -j"|"fmt --jobs")
		COMPREPLY=()
		return ;;
	"init -f"|"init --filename")
		_wingen_files -f
		return ;;
	"init -o"|"init --output")
		_wingen_words "yaml"
		return ;;
	"init --output-file")
		_wingen_files -f
		return ;;
	"migrate --runtimeclass-file")
		_wingen_files -f
		return ;;
	"migrate -j"|"migrate --jobs")
		COMPREPLY=()
		return ;;
	"migrate --values-out")
		_wingen_files -f
		return ;;
	"migrate --helm")
		_wingen_files -f
		return ;;
	"migrate --helm-arg")
		COMPREPLY=()
		return ;;
	"migrate -f"|"migrate --values")
		_wingen_files -f
		return ;;
	"migrate -k"|"migrate --kustomize")
		_wingen_files -d
		return ;;
	"migrate --set")
		COMPREPLY=()
		return ;;
	"migrate --set-string")
		COMPREPLY=()
		return ;;
	"migrate --templates")
		_wingen_files -d
		return ;;
	"migrate --load-restrictor")
		_wingen_words "rootonly none"
		return ;;
	"migrate --retarget")
		_wingen_retarget
		return ;;
	"runtimeclasses -o"|"runtimeclasses --output")
		_wingen_words "yaml json"
		return ;;
	"runtimeclasses --output-file")
		_wingen_files -f
		return ;;
	"runtimeclasses --templates")
		_wingen_files -d
		return ;;
	"runtimeclasses --load-restrictor")
		_wingen_words "rootonly none"
		return ;;
	"completion --output-file")
		_wingen_files -f
		return ;;
	"schema -o"|"schema --output")
		_wingen_words "json"
		return ;;
	"schema --output-file")
		_wingen_files -f
		return ;;
	"serve --tls-cert-file")
		_wingen_files -f
		return ;;
	"serve --tls-private-key-file")
		_wingen_files -f
		return ;;
	"serve --port")
		COMPREPLY=()
		return ;;
	"serve --address")
		COMPREPLY=()
		return ;;
	"serve --kinds")
		COMPREPLY=()
		return ;;
	"serve --log-format")
		_wingen_words "text json"
		return ;;
	"serve --log-level")
		_wingen_words "debug info warn error"
		return ;;
	"serve --threads")
		COMPREPLY=()
		return ;;
	"serve --max-connections")
		COMPREPLY=()
		return ;;
	"serve --idle-timeout")
		COMPREPLY=()
		return ;;
	"serve --shutdown-delay")
		COMPREPLY=()
		return ;;
	"serve --shutdown-timeout")
		COMPREPLY=()
		return ;;
	"version -o"|"version --output")
		_wingen_words "text json"
		return ;;
	"version --output-file")
		_wingen_files -f
		return ;;
	esac

	# An option.
	if [[ $cur == -* ]]; then
		case $cmd in
		build) _wingen_words "-f --filename -R --recursive -k --kustomize -o --output --output-file --explain --diff --check --strict --print-profile --no-runtimeclasses --only-runtimeclasses -j --jobs --nodes --templates --load-restrictor --retarget -h --help" ;;
		post-render) _wingen_words "-o --output --output-file --explain --strict -j --jobs --nodes --templates --load-restrictor --retarget -h --help" ;;
		builds) _wingen_words "-o --output --output-file --images -h --help" ;;
		check) _wingen_words "-f --filename -R --recursive -k --kustomize -o --output --output-file --strict --nodes --templates --load-restrictor --retarget -h --help" ;;
		fn) _wingen_words "-h --help" ;;
		fmt) _wingen_words "-f --filename -R --recursive -k --kustomize -o --output --output-file -j --jobs -h --help" ;;
		init) _wingen_words "-f --filename -o --output --output-file -h --help" ;;
		migrate) _wingen_words "--in-place --diff --check --reformat-fallback --runtimeclass-file --strict -j --jobs --values-out --helm --helm-arg -f --values -R --recursive -k --kustomize --set --set-string --templates --load-restrictor --retarget -h --help" ;;
		runtimeclasses) _wingen_words "-o --output --output-file --templates --load-restrictor -h --help" ;;
		completion) _wingen_words "--output-file -h --help" ;;
		schema) _wingen_words "-o --output --output-file -h --help" ;;
		serve) _wingen_words "--tls-cert-file --tls-private-key-file --port --address --audit --kinds --log-format --log-level --threads --max-connections --idle-timeout --shutdown-delay --shutdown-timeout -h --help" ;;
		version) _wingen_words "-o --output --output-file --short -h --help" ;;
		help) _wingen_words "-h --help" ;;
		esac
		return
	fi

	# A positional argument.
	case $cmd in
	build)
		_wingen_files -f
		;;
	post-render)
		_wingen_files -f
		;;
	check)
		_wingen_files -f
		;;
	migrate)
		_wingen_files -f
		;;
	runtimeclasses)
		_wingen_files -f
		;;
	completion)
		_wingen_words "bash zsh fish"
		;;
	serve)
		_wingen_files -f
		;;
	help)
		_wingen_words "$_wingen_commands plugins"
		;;
	esac
}
complete -F _wingen wingen
