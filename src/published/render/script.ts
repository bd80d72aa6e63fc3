import { createHash } from 'node:crypto';

// The site's one script, served from the site itself (`<site>/~/site.js`) and allowed by the
// pages' CSP by its hash alone (`script-src 'sha256-…'`, the <script> carrying the same
// `integrity`): no other script, inline or not, runs on a published page. Every page is whole
// without it (links, GET forms, <details>); it adds: the menu button (narrow screens), the page
// tree's disclosure arrows, theme choice without a reload (the same cookie the toggle form sets),
// copy buttons on code, "Copy page" (the page's own `.md`, fetched from the same origin: the
// CSP's `connect-src 'self'`), tabs that switch, the outline following the scroll, and the site's
// insights: a page view, a search, a "Was this page helpful?" answer and a link followed, posted to
// the site's own `~/events` (docs/manual/insights.md#the-published-site-records-its-own-events),
// nothing at all when the browser asks not to be tracked (Do Not Track, Global Privacy Control).
// No third-party request, no inline handler, nothing stored but the theme cookie.

export const SITE_JS = `(()=>{"use strict";
const d=document,h=d.documentElement,$=(s,r=d)=>[...r.querySelectorAll(s)];
h.classList.add("js");
const menu=d.querySelector("button.menu");
if(menu){const set=o=>{menu.setAttribute("aria-expanded",String(o));d.body.classList.add("anim");d.body.classList.toggle("nav-open",o)};
menu.addEventListener("click",()=>{const o=menu.getAttribute("aria-expanded")!=="true";set(o);if(o){const a=d.querySelector("#nav a");a&&a.focus()}});
d.addEventListener("keydown",e=>{if(e.key==="Escape"&&d.body.classList.contains("nav-open")){set(false);menu.focus()}});}
const cur=d.querySelector("#nav [aria-current=page]"),box=cur&&cur.closest("nav");
if(box&&box.scrollHeight>box.clientHeight)box.scrollTop=Math.max(0,cur.offsetTop-box.clientHeight/3);
$("button.arrow").forEach(b=>b.addEventListener("click",()=>{const o=b.getAttribute("aria-expanded")!=="true";b.setAttribute("aria-expanded",String(o));b.closest("li").classList.toggle("closed",!o)}));
const t=d.querySelector("form.toggle");
if(t)t.addEventListener("submit",e=>{const b=e.submitter;if(!b||!t.dataset.cookie)return;e.preventDefault();const v=b.value;
h.dataset.theme=v;d.cookie=t.dataset.cookie+"="+v+"; Path="+t.dataset.path+"; SameSite=Lax; Max-Age=31536000";
const o=t.querySelector("button:not([value="+v+"])");o&&o.focus()});
$(".code").forEach(c=>{const pre=c.querySelector("pre"),head=c.querySelector(".code-head");if(!pre||!head||!navigator.clipboard)return;
const b=d.createElement("button");b.type="button";b.className="copy";b.textContent="Copy";b.setAttribute("aria-label","Copy code");head.append(b);
b.addEventListener("click",()=>navigator.clipboard.writeText(pre.innerText.replace(/\\n$/,"")).then(()=>{b.textContent="Copied";setTimeout(()=>b.textContent="Copy",1500)},()=>{b.textContent="Copy failed"}))});
const md=d.querySelector(".page-actions a[type='text/markdown']");
if(md&&navigator.clipboard&&md.origin===location.origin){const li=d.createElement("li"),b=d.createElement("button");b.type="button";b.textContent="Copy page";b.setAttribute("aria-label","Copy page as Markdown");li.append(b);md.parentNode.before(li);
b.addEventListener("click",()=>fetch(md.href,{credentials:"same-origin"}).then(r=>r.ok?r.text():Promise.reject()).then(x=>navigator.clipboard.writeText(x)).then(()=>{b.textContent="Copied";setTimeout(()=>b.textContent="Copy page",1500)},()=>{b.textContent="Copy failed"}))}
$(".tabs").forEach((box,n)=>{const tabs=$(":scope>details.tab",box);if(!tabs.length)return;
const list=d.createElement("div");list.setAttribute("role","tablist");const btns=[],panels=[];
tabs.forEach((tab,i)=>{const s=tab.querySelector(":scope>summary"),b=d.createElement("button"),p=d.createElement("div");
b.type="button";b.id="tab-"+n+"-"+i;b.setAttribute("role","tab");b.setAttribute("aria-controls",b.id+"-panel");b.textContent=s?s.textContent:"Tab "+(i+1);
p.id=b.id+"-panel";p.setAttribute("role","tabpanel");p.setAttribute("aria-labelledby",b.id);p.tabIndex=0;
[...tab.childNodes].forEach(x=>x!==s&&p.append(x));tab.replaceWith(p);list.append(b);btns.push(b);panels.push(p);
b.addEventListener("click",()=>pick(i));b.addEventListener("keydown",e=>{const k={ArrowRight:1,ArrowLeft:-1}[e.key];if(k){const j=(i+k+btns.length)%btns.length;pick(j);btns[j].focus()}})});
const pick=i=>{btns.forEach((b,j)=>{b.setAttribute("aria-selected",String(i===j));b.tabIndex=i===j?0:-1;panels[j].hidden=i!==j})};
box.prepend(list);pick(0)});
d.addEventListener("toggle",e=>{const x=e.target;if(!x.matches||!x.matches("details[data-part]")||!x.open||x.dataset.loaded)return;x.dataset.loaded="1";
fetch(new URL(x.dataset.part,location.href),{credentials:"same-origin"}).then(r=>r.ok?r.text():Promise.reject()).then(t=>{const p=new DOMParser().parseFromString(t,"text/html").querySelector(".api-part");
if(!p)return Promise.reject();const s=x.querySelector(":scope>summary");x.replaceChildren(s,...p.childNodes)},()=>{x.dataset.loaded=""})},true);
$("form.try-it").forEach(f=>f.addEventListener("submit",e=>{e.preventDefault();const out=f.querySelector(".try-result"),m=(f.dataset.method||"get").toUpperCase(),q=new URLSearchParams(),hd={};let p=f.dataset.path||"";
for(const el of f.elements){const n=el.name||"",i=n.indexOf(":");if(i<0||!el.value)continue;const k=n.slice(0,i),v=n.slice(i+1);
if(k==="path")p=p.split("{"+v+"}").join(encodeURIComponent(el.value));else if(k==="query")q.append(v,el.value);else if(k==="header")hd[v]=el.value}
const b=f.elements.namedItem("body"),url=f.elements.namedItem("server").value+p+(q.toString()?"?"+q:"");out.hidden=false;out.textContent="Sending "+m+" "+url+"…";
fetch(url,{method:m,headers:hd,body:b&&m!=="GET"&&m!=="HEAD"?b.value:undefined,credentials:"omit",referrerPolicy:"no-referrer"}).then(r=>r.text().then(t=>{out.textContent=r.status+" "+r.statusText+"\\n\\n"+t.slice(0,100000)}),x=>{out.textContent="The request failed: "+x.message+" (the server may not allow requests from this site: CORS)"})}));
const dnt=navigator.doNotTrack==="1"||window.doNotTrack==="1"||navigator.globalPrivacyControl===true,me=d.querySelector("script[src*='/~/site.js']");
if(!dnt&&me&&window.fetch){const to=new URL("events",me.src).href,q=[];let tm=0;
const go=()=>{tm=0;if(!q.length)return;const b=JSON.stringify({events:q.splice(0,20)});fetch(to,{method:"POST",keepalive:true,credentials:"same-origin",headers:{"content-type":"application/json"},body:b}).catch(()=>{})};
const ev=(type,x)=>{q.push(Object.assign({type,url:location.href},x||{}));if(!tm)tm=setTimeout(go,50)};
const srch=location.pathname.endsWith("/~/search"),sq=new URLSearchParams(location.search).get("q");
if(srch){if(sq)ev("search_type_query",{query:sq.slice(0,512)})}else ev("page_view",{referrer:d.referrer&&new URL(d.referrer).origin!==location.origin?d.referrer:""});
addEventListener("pagehide",go);
d.addEventListener("click",e=>{const a=e.target.closest&&e.target.closest("a[href]");if(!a||!/^https?:$/.test(a.protocol))return;
const pos=a.closest(".announcement")?"announcement":a.closest("header")?"header":a.closest("footer")?"footer":a.closest("#nav")?"sidebar":"content";ev("link_click",{href:a.href,position:pos});go()});
const art=d.querySelector("main article.content");
if(art&&!srch){const f=d.createElement("div");f.className="feedback";f.setAttribute("role","group");f.setAttribute("aria-label","Page feedback");
const p=d.createElement("span");p.textContent="Was this page helpful?";f.append(p);
[["good","Yes"],["ok","Somewhat"],["bad","No"]].forEach(([r,l])=>{const b=d.createElement("button");b.type="button";b.textContent=l;b.dataset.rating=r;f.append(b);
b.addEventListener("click",()=>{ev("page_post_feedback",{rating:r});go();f.replaceChildren(Object.assign(d.createElement("span"),{textContent:"Thank you for your feedback."}))})});
art.after(f)}}
const links=$("aside.outline a");
if(links.length){const heads=links.map(a=>d.getElementById(decodeURIComponent(a.hash.slice(1)))).filter(Boolean);let q=0;
const spot=()=>{q=0;const top=parseFloat(getComputedStyle(h).scrollPaddingTop)||80;let at=0;
heads.forEach((x,i)=>{if(x.getBoundingClientRect().top<=top+8)at=i});
if(innerHeight+scrollY>=h.scrollHeight-2)at=heads.length-1;
links.forEach(a=>a.removeAttribute("aria-current"));const a=links.find(l=>l.hash.slice(1)===encodeURIComponent(heads[at]&&heads[at].id)||decodeURIComponent(l.hash.slice(1))===(heads[at]&&heads[at].id));a&&a.setAttribute("aria-current","location")};
addEventListener("scroll",()=>{q||(q=requestAnimationFrame(spot))},{passive:true});spot()}
})();
`;

export const SITE_JS_HASH = `sha256-${createHash('sha256').update(SITE_JS).digest('base64')}`;
/** A version for the script's URL: it is cached for a year, and a new script gets a new URL. */
export const SITE_JS_VERSION = createHash('sha256').update(SITE_JS).digest('hex').slice(0, 12);
