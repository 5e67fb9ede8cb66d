/* pcre_lazy.c — see pcre_lazy.h. */
#include "pcre_lazy.h"

pcre2_code *pcre_lazy_use(pcre2_code **re, unsigned *uses, const char *expr, uint32_t options)
{
    if (*re == NULL) {
        int ec;
        PCRE2_SIZE eo;
        *re = pcre2_compile((PCRE2_SPTR)expr, PCRE2_ZERO_TERMINATED, options, &ec, &eo, NULL);
        if (*re == NULL)
            return NULL;
    }
    if (*uses < PCRE_JIT_AFTER && ++*uses == PCRE_JIT_AFTER)
        (void)pcre2_jit_compile(*re, PCRE2_JIT_COMPLETE);
    return *re;
}
