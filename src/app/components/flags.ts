import cn from 'flag-icons/flags/4x3/cn.svg';
import de from 'flag-icons/flags/4x3/de.svg';
import es from 'flag-icons/flags/4x3/es.svg';
import fr from 'flag-icons/flags/4x3/fr.svg';
import gb from 'flag-icons/flags/4x3/gb.svg';
import id from 'flag-icons/flags/4x3/id.svg';
import it from 'flag-icons/flags/4x3/it.svg';
import jp from 'flag-icons/flags/4x3/jp.svg';
import kr from 'flag-icons/flags/4x3/kr.svg';
import th from 'flag-icons/flags/4x3/th.svg';
import tw from 'flag-icons/flags/4x3/tw.svg';
import vn from 'flag-icons/flags/4x3/vn.svg';
import type { Language } from '../../shared/i18n/languages';

/** Flag images of the 12 languages, shipped with the app (no network at run time). */
export const flagUrls: Record<Language['flag'], string> = { cn, de, es, fr, gb, id, it, jp, kr, th, tw, vn };
