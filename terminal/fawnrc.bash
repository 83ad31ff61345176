# fawn's shell integration for the terminal pane. bash reads this instead of
# ~/.bashrc (which it sources first, so the user's shell is their own), then
# fawn adds invisible markers the agent's commands are delimited by:
#
#   OSC 6973;NONCE;S        PS0: a command line was read and starts to run
#   OSC 6973;NONCE;D;$?;PWD first PROMPT_COMMAND hook: it finished
#   OSC 6973;NONCE;P        end of PS1: readline waits for a new line
#   OSC 6973;NONCE;C        end of PS2: the line is incomplete
#
# A terminal ignores OSC sequences it does not know, so none of this shows.
#
# Whatever the user's rc sets stays set — set -u, pipefail, extdebug, a
# DEBUG or ERR trap, xtrace, PROMPT_COMMAND as a string or an array, key
# bindings — so everything here is written to work under all of them: no
# unguarded expansion, hooks run in { } 2>/dev/null so that xtrace does not
# print them into a command's output. The one exception is set -e: in an
# interactive shell it ends the shell at the first failing command (a
# terminal window would close), so it is turned off, and the pane says so.

# bash has read all of this from its fd 3 (a pipe fawn filled): closed
# first, so nothing the shell runs inherits it.
exec 3<&-

if [ -f "$HOME/.bashrc" ]; then
	. "$HOME/.bashrc"
fi

# xtrace from the rc would print every line below into the pane; it is off
# while they run and back on at the end.
{
	__fawn_x=
	if [[ $- == *x* ]]; then
		__fawn_x=1
		set +x
	fi
	__fawn_n=${FAWN_MARKER_NONCE-}
	unset FAWN_MARKER_NONCE
	__fawn_g=${FAWN_GIT_GUARD-}
	unset FAWN_GIT_GUARD
	if [[ $- == *e* ]]; then
		set +e
		printf '\e[2m[fawn: set -e from ~/.bashrc is off in this shell: it would end the shell at the first failing command]\e[22m\r\n'
	fi
} 2>/dev/null

# History expansion would turn a "!" in a command into something else.
set +H
bind 'set enable-bracketed-paste on' 2>/dev/null
# Pasted text would otherwise stay highlighted.
bind 'set enable-active-region off' 2>/dev/null

__fawn_p0=$'\e]6973;'"$__fawn_n"$';S\a'
__fawn_p1='\[\e]6973;'"$__fawn_n"';P\a\]'
__fawn_p2='\[\e]6973;'"$__fawn_n"';C\a\]'

# Both hooks give back the status they found, so that the user's own hooks
# (and a prompt that shows $?) still see the command's.
__fawn_done() {
	local s=$?
	# A BEL or ESC in the directory name would end the marker early.
	printf '\e]6973;%s;D;%s;%s\a' "$__fawn_n" "$s" "${PWD//[$'\a\e']/?}"
	return $s
}

# Runs last: prompt frameworks rebuild PS1 in their own hooks, so the markers
# are put back every time.
__fawn_prompt() {
	local s=$?
	[[ ${PS0-} == *"$__fawn_p0"* ]] || PS0=${PS0-}$__fawn_p0
	[[ ${PS1-} == *"$__fawn_p1" ]] || PS1=${PS1-}$__fawn_p1
	[[ ${PS2-} == *"$__fawn_p2" ]] || PS2=${PS2-}$__fawn_p2
	return $s
}

# The done hook must run first to see the command's $?; parts are joined with
# newlines because a user's PROMPT_COMMAND may end in ";".
__fawn_h1='{ __fawn_done; } 2>/dev/null'
__fawn_h2='{ __fawn_prompt; } 2>/dev/null'
if ((BASH_VERSINFO[0] > 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] >= 1))); then
	PROMPT_COMMAND=("$__fawn_h1" ${PROMPT_COMMAND[@]+"${PROMPT_COMMAND[@]}"} "$__fawn_h2")
else
	PROMPT_COMMAND=$__fawn_h1$'\n'${PROMPT_COMMAND-}$'\n'$__fawn_h2
fi
unset __fawn_h1 __fawn_h2
{ __fawn_prompt; } 2>/dev/null

# Around each agent command fawn presses two keys bound here: the first puts
# away what the user had half typed, sets pagers that do not wait for a key
# and the options the command is read with, and in a project fawn does not
# trust (FAWN_GIT_GUARD) the git configuration below; the second undoes it
# all.
__fawn_begin() {
	__fawn_line=${READLINE_LINE-}
	__fawn_point=${READLINE_POINT-0}
	READLINE_LINE=
	READLINE_POINT=0
	__fawn_env=()
	local v
	for v in PAGER GIT_PAGER; do
		if [[ -v $v ]]; then __fawn_env+=("$v=${!v}"); fi
	done
	export PAGER=cat GIT_PAGER=cat
	# The agent's line is read as fawn's permission rules read it: a # starts
	# a comment (without interactive_comments, "go test # ; touch X" runs
	# touch) and an argument such as FOO=bar is an argument, not a variable
	# for the command (set -k).
	__fawn_opts=$(shopt -p interactive_comments)
	[[ $- == *k* ]] && __fawn_opts+=$'\nset -k'
	shopt -s interactive_comments
	set +k
	# In a project fawn does not trust, git reads the repository's own
	# .git/config, which can name a program as core.fsmonitor or hooks; the
	# agent's git (and a git that go build or make starts) runs with these
	# after any GIT_CONFIG_* entries of the user's, which win over the
	# repository's. Only for the agent's command: the user's own commands
	# after it get their environment back.
	__fawn_genv=()
	__fawn_gnames=()
	if [[ -n ${__fawn_g-} ]]; then
		local n=${GIT_CONFIG_COUNT-0} i kv
		[[ $n =~ ^[0-9]+$ ]] || n=0
		n=$((10#$n))
		__fawn_gnames=(GIT_CONFIG_COUNT)
		for ((i = n; i < n + 3; i++)); do
			__fawn_gnames+=("GIT_CONFIG_KEY_$i" "GIT_CONFIG_VALUE_$i")
		done
		for v in "${__fawn_gnames[@]}"; do
			if [[ -v $v ]]; then __fawn_genv+=("$v=${!v}"); fi
		done
		i=$n
		for kv in core.fsmonitor=false core.hooksPath=/dev/null safe.bareRepository=explicit; do
			export "GIT_CONFIG_KEY_$i=${kv%%=*}" "GIT_CONFIG_VALUE_$i=${kv#*=}"
			i=$((i + 1))
		done
		export GIT_CONFIG_COUNT=$i
	fi
}
__fawn_end() {
	eval "${__fawn_opts-}"
	__fawn_opts=
	unset PAGER GIT_PAGER ${__fawn_gnames[@]+"${__fawn_gnames[@]}"}
	local kv
	for kv in ${__fawn_env[@]+"${__fawn_env[@]}"} ${__fawn_genv[@]+"${__fawn_genv[@]}"}; do export "$kv"; done
	__fawn_genv=()
	__fawn_gnames=()
	READLINE_LINE=${__fawn_line-}
	READLINE_POINT=${__fawn_point-0}
	__fawn_line=
}
for __fawn_m in emacs vi-insert vi-command; do
	bind -m "$__fawn_m" -x '"\e[6973~": { __fawn_begin; } 2>/dev/null' 2>/dev/null
	bind -m "$__fawn_m" -x '"\e[6974~": { __fawn_end; } 2>/dev/null' 2>/dev/null
done
unset __fawn_m
{
	if [[ -n ${__fawn_x-} ]]; then
		set -x
	fi
	unset __fawn_x
} 2>/dev/null
