# bash completion for faultline(1). Installed to share/bash-completion/completions/faultline.
_faultline()
{
    local cur prev cmd sub
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "diagnose mask stacks watch kb version help" -- "$cur"))
        return
    fi
    case $prev in
        --format) COMPREPLY=($(compgen -W "text json markdown" -- "$cur")); return ;;
        --mask) COMPREPLY=($(compgen -W "all secrets" -- "$cur")); return ;;
        --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
        --for) COMPREPLY=($(compgen -W "grep rg" -- "$cur")); return ;;
        --kb|--fixtures) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --evidence|--threads) return ;;
    esac
    case $cmd in
        diagnose)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--format --kb --explain --evidence --threads --color --mask --no-mask --help" -- "$cur"))
            else
                COMPREPLY=($(compgen -f -- "$cur"))
            fi ;;
        mask)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--mask --help" -- "$cur"))
            else
                COMPREPLY=($(compgen -f -- "$cur"))
            fi ;;
        stacks)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--mask --no-mask --help" -- "$cur"))
            else
                COMPREPLY=($(compgen -f -- "$cur"))
            fi ;;
        watch)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$(faultline watch --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)" -- "$cur"))
            else
                COMPREPLY=($(compgen -f -- "$cur"))
            fi ;;
        kb)
            sub=${COMP_WORDS[2]}
            if [ "$COMP_CWORD" -eq 2 ]; then
                COMPREPLY=($(compgen -W "list show search lint patterns --help" -- "$cur"))
            elif [[ $cur == -* ]]; then
                case $sub in
                    lint) COMPREPLY=($(compgen -W "--fixtures --strict --help" -- "$cur")) ;;
                    patterns) COMPREPLY=($(compgen -W "--kb --for --help" -- "$cur")) ;;
                    *) COMPREPLY=($(compgen -W "--kb --help" -- "$cur")) ;;
                esac
            elif [ "$sub" = show ]; then
                COMPREPLY=($(compgen -W "$(faultline kb list 2>/dev/null | cut -f1)" -- "$cur"))
            elif [ "$sub" = lint ]; then
                COMPREPLY=($(compgen -d -- "$cur"))
            fi ;;
    esac
}
complete -o filenames -F _faultline faultline
