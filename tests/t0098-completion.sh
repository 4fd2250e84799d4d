#!/bin/sh
test_description='completion: bash, zsh and fish scripts from the option tables (issue 34)'
. "$(dirname "$0")/lib.sh"

# what --help shows: the commands of `proftool --help`, and a command's long options
commands () {
	"$PROFTOOL" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }'
}
help_options () {
	help_with_shared "$1" | sed -n 's/^  -., \(--[a-z0-9-]*\).*/\1/p; s/^      \(--[a-z0-9-]*\).*/\1/p' | sort
}

# complete_bash WORD...: the words bash completion offers for the last WORD
cat >"$TRASH/complete.bash" <<'SH'
eval "$("$PROFTOOL" completion bash)" || exit 1
COMP_WORDS=(proftool "$@")
COMP_CWORD=$#
_proftool
printf '%s\n' "${COMPREPLY[@]}"
SH
complete_bash () {
	PROFTOOL="$PROFTOOL" bash "$TRASH/complete.bash" "$@"
}

test_expect_success 'bash: the commands are those of proftool --help' '
	commands | grep -v "^completion$" | sort >want &&
	test "$(wc -l <want)" -ge 15 &&
	complete_bash "" | sort >got &&
	test_cmp want got &&
	complete_bash "t" | sort >got &&
	printf "tags\ntop\ntraces\ntree\n" >want &&
	test_cmp want got'

test_expect_success 'bash: every command offers exactly the long options its --help lists' '
	for c in $(commands | grep -v "^completion$"); do
		help_options "$c" >want &&
		complete_bash "$c" "--" | sort >got &&
		test_cmp want got || { echo "differs: $c"; exit 1; }
	done'

test_expect_success 'bash: a prefix narrows; after -o, file names' '
	complete_bash diff --fail-on- | sort >got &&
	printf -- "--fail-on-regression\n--fail-on-total-growth\n" >want &&
	test_cmp want got &&
	mkdir d && touch d/prof.pb.gz d/other.txt &&
	complete_bash top -o d/pr >got &&
	test "$(cat got)" = d/prof.pb.gz &&
	complete_bash top d/o >got &&
	test "$(cat got)" = d/other.txt'

if command -v fish >/dev/null 2>&1; then
	test_expect_success 'fish: the script parses; commands and options complete with their help' '
		"$PROFTOOL" completion fish >pt.fish &&
		fish -n pt.fish &&
		fish -c "source pt.fish; complete -C \"proftool ta\"" >got &&
		grep -qx "tags	every label key with its values and their shares (pprof -tags)" got &&
		fish -c "source pt.fish; complete -C \"proftool diff --fail-on-r\"" >got &&
		grep -q "^--fail-on-regression	exit 3 when" got &&
		for c in top diff heap; do
			help_options "$c" >want &&
			fish -c "source pt.fish; complete -C \"proftool $c --\"" | cut -f1 | sort -u >got &&
			test_cmp want got || exit 1
		done'
else
	test_skip 'fish: the script parses; commands and options complete with their help' 'fish is not installed'
fi

if command -v zsh >/dev/null 2>&1; then
	test_expect_success 'zsh: the script parses and names every option of every command' '
		"$PROFTOOL" completion zsh >_proftool &&
		zsh -n _proftool &&
		head -1 _proftool | grep -qx "#compdef proftool" &&
		for c in $(commands | grep -v "^completion$"); do
			help_options "$c" >want &&
			sed -n "/^	($c)\$/,/^		;;\$/p" _proftool | sed -n "s/^			.\(--[a-z0-9-]*\)\[.*/\1/p" | sort >got &&
			test_cmp want got || { echo "differs: $c"; exit 1; }
		done'
else
	test_skip 'zsh: the script parses and names every option of every command' 'zsh is not installed'
fi

test_expect_success 'usage: one shell of the three' '
	test_expect_code 2 "$PROFTOOL" completion &&
	test_one_line_err "proftool: completion: one SHELL expected: bash, zsh or fish (see '"'proftool completion --help'"')" &&
	test_expect_code 2 "$PROFTOOL" completion tcsh &&
	test_one_line_err "proftool: completion: no completion for '"'tcsh'"': bash, zsh or fish (see '"'proftool completion --help'"')"'

test_done
