import cn from 'flag-icons/flags/4x3/cn.svg?no-inline';
import de from 'flag-icons/flags/4x3/de.svg?no-inline';
import es from 'flag-icons/flags/4x3/es.svg?no-inline';
import fr from 'flag-icons/flags/4x3/fr.svg?no-inline';
import gb from 'flag-icons/flags/4x3/gb.svg?no-inline';
import id from 'flag-icons/flags/4x3/id.svg?no-inline';
import it from 'flag-icons/flags/4x3/it.svg?no-inline';
import jp from 'flag-icons/flags/4x3/jp.svg?no-inline';
import kr from 'flag-icons/flags/4x3/kr.svg?no-inline';
import th from 'flag-icons/flags/4x3/th.svg?no-inline';
import tw from 'flag-icons/flags/4x3/tw.svg?no-inline';
import vn from 'flag-icons/flags/4x3/vn.svg?no-inline';
import type { Language } from '../../shared/i18n/languages';

/**
 * Flag images of the 12 languages, shipped with the app (no network at run time): files of
 * their own, not inlined in the script, so a page fetches only the flags it shows.
 */
export const flagUrls: Record<Language['flag'], string> = { cn, de, es, fr, gb, id, it, jp, kr, th, tw, vn };
