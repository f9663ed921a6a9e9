import { raw } from '../../html.js';

/**
 * The platform pages' one stylesheet (inline: one request per page, nothing to cache-bust): the
 * top bar (with the merchant admin's store switcher), the left navigation that folds into a Menu
 * toggle below 760 px, cards, forms, tables that scroll within themselves, badges, notices.
 * Colours meet WCAG AA contrast; focus is always visible.
 */
export const PLATFORM_STYLE = raw(`<style>
:root{--ink:#17181c;--muted:#5b5e66;--line:#d8dae0;--bg:#f4f5f7;--card:#fff;--accent:#2b4acb;--accent-ink:#fff;--ok:#176b3a;--warn:#8a5a00;--bad:#a4161a;--top:#111827}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--accent)}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible,[tabindex]:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.skip{position:absolute;left:8px;top:-48px;background:#fff;color:var(--accent);padding:8px 12px;border-radius:6px;z-index:10}.skip:focus{top:8px}
.menu-open{position:absolute;opacity:0;width:1px;height:1px;margin:0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.top{background:var(--top);color:#fff}.top__inner{max-width:1440px;margin:0 auto;padding:10px 24px;display:flex;gap:16px;align-items:center;flex-wrap:wrap}
.top__brand{font-weight:700;color:#fff;text-decoration:none;font-size:1.05rem}.top__slot{flex:1;display:flex;gap:12px;align-items:center;min-width:0}
.top__menu{display:none;cursor:pointer;color:#fff;border:1px solid #6b7280;border-radius:6px;padding:4px 12px;font-weight:600}
.menu-open:focus-visible~.top .top__menu{outline:3px solid #f59e0b;outline-offset:2px}
.top__user{display:flex;gap:12px;align-items:center;color:#d1d5db;font-size:.9rem;min-width:0}.top__email{overflow-wrap:anywhere}
.top__user .button{padding:3px 10px}
.switcher{position:relative;min-width:0}.switcher summary{cursor:pointer;color:#fff;font-weight:600;padding:4px 10px;border:1px solid #6b7280;border-radius:6px;max-width:260px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.switcher ul{position:absolute;left:0;top:calc(100% + 6px);z-index:5;list-style:none;margin:0;padding:6px;min-width:220px;max-width:min(320px,90vw);background:#fff;border:1px solid var(--line);border-radius:8px;box-shadow:0 6px 20px rgba(0,0,0,.15)}
.switcher li a{display:block;padding:7px 10px;border-radius:6px;color:var(--ink);text-decoration:none;overflow-wrap:anywhere}.switcher li a:hover,.switcher li a[aria-current]{background:#e0e7ff}
.top__link{color:#fff;white-space:nowrap}
.shell{max-width:1440px;margin:0 auto;display:grid;grid-template-columns:minmax(0,1fr)}.shell--nav{grid-template-columns:220px minmax(0,1fr)}
.side{padding:24px 12px 24px 24px}.side ul{list-style:none;margin:0;padding:0;position:sticky;top:16px}
.side a{display:block;padding:7px 12px;border-radius:6px;color:var(--ink);text-decoration:none}.side a:hover{background:#e5e7eb}
.side a[aria-current]{background:#e0e7ff;color:#1e3a8a;font-weight:600}
main{padding:28px 24px 64px;min-width:0}.shell:not(.shell--nav) main{width:100%;max-width:1200px;margin:0 auto}
h1{font-size:1.6rem;margin:0 0 18px;overflow-wrap:anywhere}h2{font-size:1.15rem;margin:26px 0 10px}.lead{margin-top:-10px}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:20px;margin-bottom:18px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:14px}
.stat{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px}.stat__label{color:var(--muted);font-size:.85rem}.stat__value{font-size:1.5rem;font-weight:700}
.table-wrap{background:var(--card);border:1px solid var(--line);border-radius:10px;overflow-x:auto;margin-bottom:18px}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:9px 10px;border-bottom:1px solid var(--line);vertical-align:top}
tbody tr:last-child td{border-bottom:0}caption{text-align:left;padding:10px 10px 0;font-weight:600}
th{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.badge{display:inline-block;padding:1px 9px;border-radius:999px;font-size:.8rem;background:#e5e7eb;color:var(--ink);white-space:nowrap}
.badge--ok{background:#dcfce7;color:var(--ok)}.badge--warn{background:#fef3c7;color:var(--warn)}.badge--bad{background:#fee2e2;color:var(--bad)}
.field{display:flex;flex-direction:column;gap:5px;margin-bottom:14px}.field label,.field legend{font-weight:600;font-size:.9rem}
.field__error{color:var(--bad);font-size:.9rem}.field__hint{color:var(--muted);font-size:.85rem}
input[type=text],input[type=email],input[type=tel],input[type=password],input[type=search],input[type=number],input[type=url],input[type=date],select,textarea{font:inherit;padding:9px 11px;border:1px solid #8b8f99;border-radius:6px;background:#fff;color:var(--ink);width:100%}
[aria-invalid=true]{border-color:var(--bad)}
.button{display:inline-block;font:inherit;font-weight:600;padding:9px 18px;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-ink);text-decoration:none;cursor:pointer}
.button--secondary{background:#fff;color:var(--accent)}.button--danger{background:var(--bad);border-color:var(--bad);color:#fff}
.actions{display:flex;gap:10px;align-items:center;flex-wrap:wrap}.muted{color:var(--muted)}
.errors{border:1px solid var(--bad);color:var(--bad);background:#fff5f5;border-radius:8px;padding:10px 14px;margin-bottom:16px}.errors ul{margin:4px 0 0;padding-left:18px}
.notice{border:1px solid #b6c3f2;background:#eef2ff;border-radius:8px;padding:10px 14px;margin-bottom:16px}
.empty{text-align:center;padding:28px 20px}.empty p{margin:0 0 14px}
.pager{display:flex;gap:12px;margin:14px 0 18px;flex-wrap:wrap}.narrow{max-width:460px;margin:40px auto}
.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:6px 18px}.facts dd{margin:0;overflow-wrap:anywhere}
pre{white-space:pre-wrap;word-break:break-word;background:#f8f9fb;border:1px solid var(--line);border-radius:6px;padding:10px;font-size:.85rem}code{overflow-wrap:anywhere}
@media (max-width:760px){
.top__inner{padding:10px 16px}.top__menu{display:inline-block}.top__slot:not(:empty){order:3;flex-basis:100%}.shell--nav{grid-template-columns:minmax(0,1fr)}
.side{display:none;padding:8px 16px 0}.menu-open:checked~.shell .side{display:block}.side ul{position:static}
main{padding:20px 16px 48px}.facts{grid-template-columns:minmax(0,1fr)}.facts dd{margin-bottom:8px}
}
@media (max-width:600px){
.table-wrap--stack table,.table-wrap--stack tbody,.table-wrap--stack tr,.table-wrap--stack td{display:block}
.table-wrap--stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.table-wrap--stack tr{padding:6px 0;border-bottom:1px solid var(--line)}.table-wrap--stack tbody tr:last-child{border-bottom:0}
.table-wrap--stack td,.table-wrap--stack tbody tr:last-child td{display:grid;grid-template-columns:7.5rem minmax(0,1fr);gap:10px;border:0;padding:4px 12px}
.table-wrap--stack td::before{content:attr(data-label);color:var(--muted);font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;padding-top:2px}
}
@media (min-width:761px){.menu-open{display:none}}
</style>`);
