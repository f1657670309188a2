# bash completion for wingen(1).  Installed by cmake --install into
# share/bash-completion/completions; or: source docs/wingen.bash
_wingen()
{
	local cur prev cmd i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	local commands="build check fn fmt migrate runtimeclasses init builds
		schema version help"

	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
		return
	fi

	# Option values.
	case $prev in
	-f | --filename)
		COMPREPLY=($(compgen -f -- "$cur"))
		compopt -o filenames 2>/dev/null
		return ;;
	-o | --output | --output-format)
		# -o is always a format; a file is --output-file.
		case $cmd in
		check) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
		builds) COMPREPLY=($(compgen -W "table json" -- "$cur")) ;;
		init) COMPREPLY=($(compgen -W "yaml" -- "$cur")) ;;
		schema) COMPREPLY=($(compgen -W "json" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "yaml json" -- "$cur")) ;;
		esac
		return ;;
	--load-restrictor)
		COMPREPLY=($(compgen -W "rootonly none" -- "$cur"))
		return ;;
	--templates | -k | --kustomize)
		COMPREPLY=($(compgen -d -- "$cur"))
		compopt -o filenames 2>/dev/null
		return ;;
	--retarget)
		# OLD=NEW: the releases of the catalogue, then a build.
		COMPREPLY=($(compgen -W "ltsc2016= 1709= 1803= ltsc2019= 1903=
			1909= 2004= 20H2= ltsc2022= 23H2= ltsc2025=" -- "$cur"))
		compopt -o nospace 2>/dev/null
		return ;;
	-j | --jobs)
		# A number: nothing to offer, and no file names.
		COMPREPLY=()
		return ;;
	--runtimeclass-file | --output-file | --nodes)
		COMPREPLY=($(compgen -f -- "$cur"))
		compopt -o filenames 2>/dev/null
		return ;;
	esac

	local opts
	case $cmd in
	build) opts="-f --filename -R --recursive -k --kustomize -o --output
		--output-file --explain
		--strict --diff --check --print-profile --no-runtimeclasses
		--only-runtimeclasses -j --jobs --nodes --retarget --templates
		--load-restrictor --help" ;;
	runtimeclasses) opts="-o --output --output-file --templates
		--load-restrictor --help" ;;
	check) opts="-f --filename -R --recursive -k --kustomize -o --output
		--output-file --strict --nodes
		--retarget --templates --load-restrictor --help" ;;
	fmt) opts="-f --filename -R --recursive -k --kustomize -o --output
		--output-file -j --jobs
		--help" ;;
	migrate) opts="--in-place --diff --values-out -f --values --set
		--set-string --helm --helm-arg --reformat-fallback
		--runtimeclass-file --strict -j --jobs --retarget --templates
		--load-restrictor --help" ;;
	init) opts="-f --filename -o --output --output-file --help" ;;
	builds) opts="-o --output --output-file --images --help" ;;
	schema) opts="-o --output --output-file --help" ;;
	fn | version) opts="--help" ;;
	help)
		COMPREPLY=($(compgen -W "$commands plugins" -- "$cur"))
		return ;;
	*) return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	# PROFILE and PATH arguments: files and folders.
	case $cmd in
	build | check | migrate | runtimeclasses)
		COMPREPLY=($(compgen -f -- "$cur"))
		compopt -o filenames 2>/dev/null ;;
	esac
}
complete -F _wingen wingen
