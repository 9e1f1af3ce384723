"""Databases for measuring generated goals on schemas nobody tuned the sampler to (bench/goal_quality.py).

The hotel chain (`build_hotel_database`, eight tables), on which the rules of annotation.goals.rules were written:
two link tables (booking_service, room_amenity), codes stored as text and as numbers (country_code, channel_code,
zip_code, loyalty_no), floors, years, genders, unique names, and tables of very different sizes (8 hotels, ~1,000
bookings).

The football league (`build_football_database`, nine tables), made as a held-out database before the sampler was
run on it: two seasons of a ten-club league. Link tables with composite keys (contract: player, club and season;
appearance: match and player), codes as text (nationality, position, foot) and as numbers (region_code,
registration_no), ordinals (season_yr, matchday, shirt_no, licence_grade, the minute of a goal or a card), dates
(birth_date, kickoff), unique names, NULLs (attendance, capacity, nationality, region_code), two foreign keys to one
table (home and away club), and a column whose name misleads: caps_no is a count of international caps, not an
identifier.

The clinic (`build_clinic_database`, eight tables), made as a held-out database before the sampler was run on it:
departments keyed by a text code (with a head doctor, a foreign key back to doctor), doctors with a grade level
(ordinal), a licence number and an on-call flag (0/1), patients whose names repeat, with sex, postcodes, blood groups
(NULLs) and 0/1 flags (insured, smoker: NULL for children), appointments with a day's slot number (ordinal) and a
status code (ATT, CNL, DNA, BKD), diagnoses keyed by their ICD code with a 0/1 chronic flag, a link table with a
composite key and a rank (appointment_diagnosis), medications with ATC codes, and prescription lines keyed by the
appointment and a line number (composite key, ordinal) with doses, days supplied and refills.

The public library (`build_library_database`, nine tables) and the logistics company (`build_logistics_database`,
nine tables), made as held-out set 8 before the sampler was run on either: branches, members (card numbers as text,
member type codes, repeated names, NULL birth years and e-mails, an active flag), authors (repeated names, NULLs),
books keyed by ISBN text (Dewey codes as text, editions as ordinals, repeated titles), a book-author link with a
composite key and an author order, copies (barcodes as numbers, shelf numbers, condition grades 1-5, a withdrawn
flag), ~900 loans (NULL return dates, renewals), reservations (three-column key, queue positions) and fines (reason
codes, paid flag); warehouses (codes as text, region numbers, NULL floor areas), carriers (repeated names, SCAC
codes), customers (repeated company names, credit tiers, VAT numbers as text with NULLs), products keyed by SKU text
(HS codes as numbers, a hazmat flag), stock with a composite key and bin numbers, 700 orders (priority ordinals,
status codes), order lines keyed by order and line number, shipments (NULL delivery dates) and returns referring to
an order line by a two-column foreign key.

The museum (`build_museum_database`, ten tables) and the secondary school (`build_school_database`, ten tables), made
as held-out set 9 before the sampler was run on either: galleries keyed by a text code (floor numbers, a climate flag,
a NULL area), staff (repeated names, department codes, grade levels, NULL extension numbers), artists (NULL years and
nationalities, ULAN numbers), objects keyed by accession numbers as text (type and acquisition codes, repeated titles
such as "Untitled", NULL media, years and widths, a gallery only when on display, insured values in steps), an
object-artist link with a composite key, an attribution and a credit order, exhibitions (a curator, a ticketed flag,
NULL budgets), exhibit items (composite key, case numbers, a display order), outgoing loans keyed by a reference text
(NULL return dates, a courier flag), condition checks keyed by object and date (grades 1-5, a treatment flag) and
1,200 tickets (type and channel codes, party sizes, an exhibition or none); departments keyed by a text code (a head
teacher, a foreign key back to teacher, NULL once), teachers (staff codes, repeated names, pay scales, a full-time
flag), 300 students (UPNs as text, year groups, form codes, a free-meals flag, NULL special-needs codes), guardians
and a student-guardian link (composite key, contact priority), courses keyed by code (key stages, exam boards with
NULLs, an optional flag), classes (set numbers, room numbers), ~1,900 enrolments (composite key, a withdrawn flag),
assessments (term numbers, maximum marks, weights) and ~3,700 results (composite key, NULL marks and grades, a late
flag).

The regional airline (`build_airline_database`, nine tables) and the homeware and clothing chain
(`build_retail_database`, ten tables), made as drafts held-out set 10 before any draft was worded on either, with
column names shortened as real schemas shorten them (`_cd`, `_nm`, `_dt`, `_no`, `_qty`, `_amt`, `_flg`, `_rt`, `yr`,
`mon`): airports keyed by IATA code (a hub flag, UTC offsets), aircraft keyed by tail number (model codes, seat
counts, a wifi flag and a leased flag), crew members (rank and base codes, a reserve flag), routes between two
airports (two foreign keys to one table, an international flag), 420 flights (flight numbers repeated over the year,
departure month, NULL delays of cancelled flights, status codes), crew assignments (composite key, duty codes, a
deadhead flag), passengers (NULL birth dates and frequent-flyer numbers, a VIP flag), bookings keyed by a PNR code
(cabin codes, fares, a refundable flag) and booking segments (composite key, NULL seats, bag counts, a no-show flag);
stores (NULL floor space, a flagship flag), employees (role codes, hourly rates, part-time and keyholder flags),
suppliers keyed by a code (lead days, a preferred flag), items numbered as article numbers (department codes, EAN
codes as text, own-brand and seasonal flags), each store's stock (composite key, NULL aisles), loyalty members
(tier codes, an e-mail opt-in flag), 1,100 sales (NULL members, payment codes), sale lines (composite key, discounts
from the promotions), promotions keyed by a code (a department, dates, a clearance flag) and monthly store targets
(a three-column key of store, year and month).

The city transit network (`build_transit_database`, ten tables) and the research grants office
(`build_grants_database`, ten tables), made as goals held-out set 10 before the sampler was run on either: operators
keyed by a code (a subsidised flag), stops (stop codes as text, fare zones, sheltered and step-free flags, names
repeated as Stop B and Stop C), routes (route numbers as text such as 7A and N22, modes, a night flag, NULL years), a
route-stop link keyed by route, direction and sequence (minutes from the start, a timing-point flag), vehicles keyed
by fleet number (plates, seats, an electric flag), drivers (badges, titles and surnames, pay bands, a trainer flag),
600 trips (a driver's and a vehicle's operator two joins from the route's, NULL delays of cancelled trips), fare
products keyed by a code (a concession flag), smartcards (NULL birth years, a blocked flag) and 1,500 taps (composite
key of card and trip); funders keyed by a code, schemes (maximum awards and months, an early-career flag),
institutions (UKPRNs as text), departments, researchers (ORCIDs with NULLs, titles and surnames, career stages, NULL
PhD years), 180 applications keyed by a reference such as EPSRC/X000012/1 (rounds, status codes, NULL panel ranks),
investigators and reviews (composite keys, roles, NULL scores and dates, a conflict flag), awards keyed by a grant
number (an extended flag) and payments keyed by grant and instalment number (a paid flag).

The veterinary practice (`build_vet_database`, nine tables) and the film festival (`build_festival_database`, ten
tables), made as drafts held-out set 11 before any draft was worded on either, with shortened column names: sites
keyed by a code (an X-ray flag, a NULL opening year), staff (role codes, NULL RCVS numbers of receptionists, FTE
rates, a locum flag), owners (repeated names, NULL phone numbers), animals (species codes, NULL breeds and birth
dates, neutered and deceased flags, microchip numbers as text), 650 consultations (slot numbers, reason and status
codes, NULL weights), treatments keyed by a code, a consultation-treatment link (composite key, quantities),
vaccinations (three-column key, batch numbers, due dates) and insurance policies (an excess, a lifetime flag); venues
keyed by a code (seat counts, a step-free flag), films of two editions (NULL original titles, country and language
codes, premiere and section codes, runtimes), people (NULL countries and birth years), film credits (three-column
key, role codes, billing order), screenings (a Q&A flag, sold and complimentary counts), juries (a president, a
foreign key to person), jury members (composite key), prizes keyed by code and edition (NULL juries and amounts),
passes keyed by a text number and ~1,300 tickets (NULL passes, channel codes, a scanned flag).

The brewery (`build_brewery_database`, nine tables) and the energy utility (`build_energy_database`, ten tables), made
as suggestions held-out set 13 before any suggestion was worded on either, with shortened column names and 0/1 flags
named by nouns, adjectives and participles: suppliers keyed by a code (lead days, an organic-certified flag),
ingredients (type codes, unit costs, NULL alpha acid percentages of all but hops, an allergen flag), beers keyed by a
code (style codes, ABV, IBU, launch years, seasonal, vegan and retired flags), recipe lines (composite key,
quantities in kg, stage codes), staff (role codes, hire dates, IBD-qualified and keyholder flags), 300 brews keyed by
batch number (a brewer and a NULL-able checker, two foreign keys to staff, fermenter numbers, volumes in hl, original
and NULL final gravities, a dumped flag), pubs (repeated names, tap counts, NULL opening years, a tied flag), 800
orders (NULL delivery dates, status codes, a prepaid flag) and order lines (composite key, NULL batches, pack codes);
tariffs keyed by a code (fuel codes, unit rates in pence, standing charges, fixed and green flags), customers (NULL
titles, birth years and e-mail addresses, PSR and paperless flags), premises (property type codes, NULL EPC bands,
build years and MPANs), accounts keyed by a text number (a holder and a NULL-able payer, two foreign keys to customer,
NULL closing dates, a direct-debit flag, balances), meters keyed by serial (type codes, prepayment and commissioned
flags), ~1,100 monthly readings (three-column key, NULL kWh of the first, source codes, an estimated flag), quarterly
bills (kWh totals, VAT), payments keyed by a reference (NULL bills, method codes, a reversed flag), outages (district
codes, NULL ends, cause codes, a planned flag) and the premises each cut off (composite key, NULL compensation).

The mobile operator (`build_telecom_database`, ten tables) and the farm co-operative (`build_farm_database`, ten
tables), made as goals held-out set 12 before the sampler was run on either, with shortened column names: plans keyed
by a code (monthly prices, NULL data and minutes of unlimited plans, term months, business and sellable flags),
bolt-ons keyed by a code (a roaming flag), 230 subscribers (repeated first and last names, NULL birth dates and credit
scores, segment codes, a marketing opt-in flag), devices keyed by IMEI text (makes and models repeated, OS codes, an
eSIM flag), 300 contracts keyed by a text number (a user and a bill payer, two foreign keys to subscriber; MSISDNs as
text, NULL devices and end dates, status and channel codes), a contract-bolt-on link (composite key), cell sites
(site names repeated over three sectors, region and technology codes, NULL install years, a shared flag), 1,500 usage
records (start and end cell, two foreign keys to cell_site; NULL durations, volumes and end cells by type, operator
codes, a roaming flag, charges mostly 0), 2,800 monthly invoices (period codes, net and VAT amounts, NULL paid dates, a
direct-debit flag) and number port requests (direction and operator codes, PAC codes); 70 members (repeated first and
last names, farm names, parishes, share counts, an organic flag, a proposer and a seconder: two foreign keys back to
member, NULL for founders), fields keyed by member and field number (repeated field names, areas, soil codes, an
irrigated flag), crops keyed by a code (families, a perennial flag, base prices per kg), 444 plantings referring to a
field by a two-column foreign key (season years, NULL varieties, sown areas), harvests keyed by planting and date,
depots keyed by a code (a cold-store flag), 720 delivery dockets (grade codes, NULL moisture of non-grains, a rejected
flag), buyers (a name repeated in two towns, type codes, NULL VAT numbers, payment terms), 400 sales (quantities in
steps, prices per kg) and quarterly payments keyed by member and period (gross and levy amounts, method codes).

The letting agency (`build_estate_database`, nine tables) and the gym chain (`build_gym_database`, ten tables), made
as drafts held-out set 12 before any draft was worded on either, with shortened column names and 0/1 flags named by
nouns (trainee, garden, pets, student, guarantor, lead tenant, pool, waitlist), adjectives (overseas, virtual,
conditional, periodic, corporate, freelance, faulty, off peak) and participles (franchised, furnished, refurbished,
frozen, cancelled, attended): branches keyed by a code (NULL opening years), agents (grade codes, commission rates,
an ARLA-qualified flag), landlords (NULL titles, companies and phone numbers), properties keyed by a text reference
(type codes, bedroom and bathroom counts, NULL floor areas and EPC bands, rents per calendar month), applicants (NULL
e-mail addresses, maximum rents, minimum bedrooms), 600 viewings (a NULL agent for some virtual ones, slot numbers,
outcome codes), offers (three-column key, status codes), tenancies (a letting agent and a NULL-able managing agent,
two foreign keys to agent, NULL end dates, terms in months) and a tenancy-tenant link (composite key); clubs keyed by
a code (NULL opening years, maximum occupancy), plans keyed by a code (monthly and joining fees, minimum terms,
multi-club flag), 420 members (NULL birth dates, gender codes and e-mail addresses, a home club), memberships keyed by
member and start date (NULL end dates, payment method codes, discounts), trainers (level codes, hourly rates),
class types keyed by a code (intensity levels, durations, NULL calorie estimates), 500 class sessions (a trainer and a
NULL-able cover trainer, two foreign keys to trainer, studio numbers, capacities), ~6,400 bookings (composite key),
2,400 visits keyed by member and check-in time (NULL check-outs, guest counts) and equipment keyed by an asset number
(type codes, makes, NULL service dates).

The conference organiser (`build_conference_database`, nine tables) and the vehicle fleet maintenance operator
(`build_fleet_database`, eight tables), made as goals held-out set 13 before the sampler was run on either, with
shortened column names and 0/1 flags: venues keyed by a code (NULL capacities, a step-free flag), ten conferences
(a series name repeated over its editions, edition numbers, early and standard fees, a hybrid flag), 80 speakers
(repeated first and last names, NULL affiliations and ORCID ids, an invited flag), sessions keyed by conference and
session number (track codes, rooms, a chair and a NULL-able co-chair: two foreign keys to speaker; a plenary flag),
talks referring to a session by a two-column foreign key (type codes, slot numbers, durations, recorded and withdrawn
flags), a talk-speaker link (composite key, author order, a presenting flag), 90 attendees (NULL e-mails and
organisations, a student flag), registrations keyed by conference and attendee (fee type codes, NULL diet codes, a
cancelled flag) and sponsors (company names repeated over conferences, tier codes, NULL booth numbers, an in-kind
flag); depots keyed by a code (bay counts, a wash-bay flag), models keyed by a code (makes repeated, fuel codes, gross
weights, service intervals), 70 vehicles keyed by a registration (a base and a maintenance depot: two foreign keys to
depot; VINs, odometers, leased and off-road flags), 60 drivers (repeated names, licence categories, penalty points, an
agency flag), 100 work orders (type codes, NULL closing dates, labour hours and reporting drivers, a VOR flag), parts
keyed by a part number (suppliers, unit costs, minimum stock, an OEM flag), part usage (composite key, quantities,
costs, a warranty flag) and 100 inspections (type codes, NULL drivers, defect counts, a passed flag).

The restaurant chain (`build_restaurant_database`, ten tables) and the bug tracker (`build_tracker_database`, eight
tables), made as drafts held-out set 13 before any draft was worded on either, with shortened column names and 0/1
flags named by nouns (outdoor, admin, lts), adjectives (licensed, vegan, seasonal, part time, internal) and
participles (comped, paid, cancelled, edited, reopened, archived, deactivated): five restaurants (NULL opening year),
28 menu items keyed by a code (course codes, prices, NULL calorie estimates), allergens keyed by a code and an
item-allergen link (composite key, a trace-only flag), 60 staff (role codes, hourly rates), shifts keyed by staff and
date, dining tables keyed by restaurant and table number, 70 bookings (a composite foreign key to the table), 80
orders (a server and a NULL-able cashier, two foreign keys to staff; a NULL-able booking) and their lines (composite
key, quantities); 24 users (unique logins, NULL e-mail addresses and time zones), six projects keyed by a text key (a
lead user, NULL repository addresses), releases keyed by project and version string (NULL release dates), 80 issues
(type and status codes, priority levels, a reporter and a NULL-able closer, two foreign keys to the user; a fix
version, a composite foreign key to the release; NULL close times and estimates in hours), issue assignees and issue
labels (link tables with composite keys), 80 comments (body lengths) and ten labels (colour codes).

The car rental company (`build_rental_database`, nine tables) and the fundraising charity (`build_charity_database`,
nine tables), made as held-out suggestions set 14 before any rule was written for either, with shortened column
names and 0/1 flags named by nouns (airport, gift aid, no show), adjectives (automatic, anonymous, restricted,
outdoor) and participles (franchised, retired, blacklisted, prepaid, lapsed, refunded, disputed, reported,
attended): branches keyed by a code such as MAN-APT (NULL opening years, bay counts), vehicle classes keyed by an
ACRISS code (seat counts, day rates, deposits), 90 vehicles keyed by a registration (makes and models repeated,
model years, fuel codes, odometers), 180 customers (repeated first and last names, NULL birth years, e-mail
addresses and tier levels, unique licence numbers, country codes), 700 rentals (a pick-up and a NULL-able return
branch, two foreign keys to branch; NULL return dates, kilometres and totals of open rentals, channel codes), extras
keyed by a code (NULL maximum fees), a rental-extra link (composite key, quantities), damage lines keyed by rental
and line number (panel codes, severities 1-3, NULL repair costs) and service visits keyed by vehicle and date
(type codes, garage names repeated, NULL labour hours of MOTs); funds keyed by a code (NULL targets), campaigns
whose names repeat over four years (channel codes, NULL closing dates and goals), 260 donors (NULL titles,
postcodes and birth years, a recruiting donor: a foreign key back to donor), 900 donations (NULL campaigns of
regular gifts, payment codes, NULL gift aid claimed), 45 volunteers (NULL phone numbers and weekly hours, a
supervisor: a foreign key back to volunteer), 24 events (names with their year, type codes, NULL capacities and
campaigns, ticket prices), volunteer shifts and event registrations (composite keys, role codes, party sizes, NULL
amounts raised) and 40 grants keyed by a reference such as GR-2025-001 (partner names repeated, region codes,
tranche counts, NULL report due dates).

The orchestra (`build_orchestra_database`, nine tables) and the craft bakery (`build_bakery_database`, nine tables),
made as held-out goals set 14 before any rule was written for it, with shortened column names and 0/1 flags: venues
keyed by a code (unique names, a NULL seat count, an organ flag), seven conductors (unique names, NULL birth years, a
principal-guest flag), 83 musicians (repeated first and last names, instrument and section codes, desk numbers as
ordinals, years joined, a principal flag, NULL e-mails), twelve composers (unique names, NULL years of death), 28
works (titles repeated over composers, such as Symphony No. 5 and Cello Concerto; catalogue_id, a misleading name:
a catalogue code as text such as 'Op. 67' or 'K. 550', NULL for some, no identifier; NULL years, durations, player
counts, a choral flag), 42 concerts over three seasons (season years, series codes, NULL soloists, broadcast and
sold-out flags), programme items keyed by concert and item number (an encore flag), ~3,100 concert players
(composite key, chair numbers, fees, a deputy flag) and ~1,900 ticket sales keyed by concert, seat row letter and
seat number (price band codes, prices, a subscriber flag); five shops keyed by a code (unique names, two in one town,
a NULL opening year, oven counts, a cafe flag), 46 staff (repeated names, role codes, hourly rates, shift_no, a
misleading name: the shifts worked this month, a count; an apprentice flag), 25 products keyed by a text code such as
SD-800 (unique names, category codes, weights, prices, shelf days, vegan and discontinued flags), 26 ingredients
(unit codes, NULL allergen codes, an organic flag), recipe lines (composite key, quantities), ~750 bake batches keyed
by shop, day and batch sequence number (oven numbers, a baker, NULL waste of the last days), 20 trade accounts keyed
by a text number such as T0004 (a name repeated, type codes, postcodes, NULL VAT numbers, credit days, an on-stop
flag), 360 trade orders (a NULL-able driver, a foreign key to staff; NULL delivery dates, a standing-order flag) and
~1,100 order lines keyed by order and line number.

The community pharmacy chain (`build_pharmacy_database`, nine tables) and the marina (`build_marina_database`, nine
tables), made as drafts held-out set 14 before any rule was written for either, with shortened column names (`_cd`,
`_nm`, `_no`, `_dt`, `_ts`, `_rt`, `_yr`, `_qty`, `_lvl`, `_sz`, `_amt`, `_pct`, `rx`, `sup`, `chk`, `loc`, `pwr`,
`loa`, `mbr`, `ltrs`, `ppl`) and 0/1 flags named by nouns (consult_rm, locum, fridge, finger, fuel, visitor,
liveaboard, club_mbr), adjectives (private, seasonal, owing), participles (collected, substituted, insured,
duty_paid) and acronyms (otc, eps): six branches keyed by a code (NULL opening years), 42 staff (role codes, NULL
GPhC numbers of unregistered staff, hourly rates, an independent-prescriber flag), 160 patients (NHS numbers as text,
repeated names, NULL birth dates, exemption codes with NULLs, a NULL-able nominated branch), 26 prescribers (names
repeated, practices repeated with their ODS codes, type codes), 38 drugs keyed by a code (generic names repeated over
strengths and forms, NULL brands and strengths, pack sizes and costs, controlled-drug schedules 2-5 as an ordinal,
NULL for most), each branch's stock (composite key, reorder levels, NULL bin locations), 300 prescriptions (NULL
dispensing dates, repeat numbers, status codes), their items (composite key, NULL days supplied, dose texts) and the
checks made on them (a prescription-staff link with a composite key, stage codes); six pontoons keyed by a letter,
berths keyed by pontoon and number (NULL power of unpowered pontoons), 130 owners (NULL titles, e-mails and phones,
repeated names, country codes), 140 vessels (names repeated, type codes, lengths, beams and drafts in metres, NULL
build years, engine powers and MMSIs), a vessel-owner link (composite key, share percentages, a primary-contact flag),
14 staff (a repeated name, role codes), 120 berth allocations and 260 visits (`visit_rec`), each referring to a berth
by a two-column foreign key (contract codes, NULL end dates; a check-in hand, NULL departures and nights of boats
still in) and 220 fuel sales (fuel codes, litres, pence per litre).

The ferry operator (`build_ferry_database`, nine tables) and the cinema chain (`build_cinema_database`, nine tables),
made as held-out suggestions set 15 before any rule was written for it, with shortened column names (`_cd`, `_nm`,
`_no`, `_dt`, `_ts`, `_yr`, `_cnt`, `_amt`, `_px`, `_min`, `pax`, `veh`, `nat`, `cert`, `exp`, `distrib`, `orig`,
`conc`, `scr`, `mbr`, `tkt`, `fmt`, `kcal`; `dist_nm` a distance in nautical miles, not a name) and 0/1 flags named by
nouns (customs, catamaran, relief, freight, pet, wheelchair, parking, recliner, premiere, student, vip, combo),
adjectives (overnight, seasonal, accessible, vegan) and participles (refitted, cancelled, amended, refurbished,
subtitled, refunded, discontinued): eight ports keyed by a code (unique names, NULL opening years), eight vessels keyed
by IMO number (two of the same class with the same tonnage, NULL cabin counts of day boats), nine routes keyed by a
code such as HOL-DUB (a departure and an arrival port, two foreign keys to port; distances, crossing minutes), 480
sailings (NULL delays, passenger and vehicle counts of cancelled ones, status codes), 80 crew members (repeated first
and last names, rank and nationality codes, NULL certificate expiry dates of stewards), a crew roster (composite key,
duty codes, watch numbers as ordinals), 220 customers (repeated names, NULL e-mail addresses and loyalty tiers), 900
bookings keyed by a six-letter reference (NULL vehicle types, lengths and cabins) and the passengers named on each
(composite key of booking and sequence number, surnames shared within a booking, NULL birth years, type codes); six
sites keyed by a code such as BRS-CAB (unique names, two in one city, NULL opening years), screens keyed by site and
screen number (seat counts, format codes), 18 films (titles repeated over remakes and re-releases such as The Lion
King and Nosferatu, certificate and genre codes, runtimes, distributors repeated, NULL original languages), 420
screenings referring to a screen by a two-column foreign key (price band codes, NULL sold counts of cancelled ones),
300 members (repeated names, NULL birth years, e-mail addresses and home sites, tier codes), tickets keyed by
screening, seat row letter and seat number (NULL members, ticket type codes, prices), concession items keyed by a code
(category codes, NULL calorie counts), 700 concession sales (NULL members, payment codes) and their lines (composite
key, quantities).

The holiday park chain (`build_campsite_database`, nine tables) and the auction house (`build_auction_database`, nine
tables), made as held-out suggestions set 16 before any rule was written for it, with shortened column names (`_cd`,
`_nm`, `_dt`, `_yr`, `_cnt`, `_amt`, `_pct`, `occ`, `sqm`, `hrs`, `wk`, `dur`, `cap`, `fac`, `cat`, `act`, `spec`,
`est`, `prem`, `comm`, `reg`, `desc`, `arr`) and 0/1 flags named by nouns (swimming, fishing, hookup, hardstanding,
parking, newsletter, awning, lifeguard, catering, auctioneer, trade, dealer, shipping), adjectives (coastal, seasonal,
chargeable, indoor, online) and participles (shaded, cancelled, ticketed, attended, postponed, signed, framed,
withdrawn, vetted, collected): seven parks keyed by a code such as CRN-PEN (unique names, region codes, NULL opening
years), pitches keyed by park and pitch number (type codes, areas in square metres, most occupants), 300 guests
(repeated names, NULL e-mail addresses and birth years, club numbers unique with NULLs), 900 stays referring to a
pitch by a two-column foreign key (unit codes, adult, child and dog counts), twelve facilities keyed by a code and the
parks' facilities (composite key, NULL opening hours), 70 staff (repeated names, role codes, hours per week), the
weekly activities (names repeated over parks, NULL leaders and prices of free ones, durations) and the activities
booked during a stay (composite key, places); five salerooms keyed by a code (unique names, NULL opening years), 36
sales (titles repeated, department codes, buyer's premium percentages), 22 specialists and who ran each sale (a link
table with a composite key and role codes; NULL salerooms), 150 consignors (repeated names, NULL firm names of private
sellers, commission percentages), the lots keyed by sale and lot number (descriptions repeated, NULL makers, years and
reserves, estimates), 260 bidders keyed by paddle number (repeated names, NULL e-mail addresses), the bids and the
purchases, each referring to a lot by a two-column foreign key (channel codes, hammer prices, premiums, NULL payment
dates).

The motor and home insurer (`build_insurer_database`, ten tables) and the bike-share scheme
(`build_bikeshare_database`, ten tables), made as drafts held-out set 15 before any rule of that round was written,
with shortened column names of one reading (`prem`, `pol`, `clm`, `pmt`, `ph`, `ncd`, `mls`, `lic`, `stn`, `batt`,
`incl`, `elev`, `hrs`) and of two (`brk` a broker, `occ` an occupation, `adj` an adjuster, `xs` an excess, `rel` a
relation, `dist` a district in one table and a distance in another, `rep` a repair) and 0/1 flags named by nouns
(homeowner, telematics, auto renewal, learner, contractor, fraud referral, ex gratia, hub, charger, concession,
warranty, lead, group ride, low traffic), adjectives (tied, preferred, comprehensive, vulnerable, electric, faulty,
senior, annual) and participles (discontinued, cancelled, modified, garaged, chartered, disputed, covered, sponsored,
retired, verified): brokers keyed by a code (a name repeated in two towns, FCA references, NULL years appointed),
products keyed by a code (line codes, minimum premiums, voluntary excesses), 260 policyholders (NULL titles, birth
dates, e-mail addresses and occupation codes, repeated names, no-claims years), 420 policies keyed by a text number
such as MP-004007 (NULL brokers of direct business and lapse dates, payment frequency codes), vehicles keyed by
registration (makes and models repeated, NULL engine sizes of electric cars, insurance groups), a policy-vehicle link
and named drivers (composite keys; relation codes), 14 adjusters (grade levels) and 320 claims keyed by a reference
such as CLM-2023-00001 (a vehicle of the policy by a two-column foreign key, NULL for home claims; NULL adjusters and
settled amounts, peril and status codes) and their payments (composite key of claim and payment number, payee codes);
districts keyed by a code, 18 stations (names repeated over districts: Station Road, Queen Square; NULL opening dates
and elevations), docks keyed by station and dock number, 160 bikes keyed by fleet number (frame references, model
codes, NULL battery capacities of pedal bikes, odometers), plans keyed by a code (NULL included minutes of unlimited
plans), 280 riders (repeated names, NULL birth years, e-mail addresses and plans), 1,300 trips (NULL riders of casual
hires; the end dock by a two-column foreign key, NULL with the duration and distance of bikes never docked), nine
mechanics, 240 repairs (NULL closing dates and parts amounts) and a repair-mechanic link (composite key, hours).

The winery (`build_winery_database`, ten tables) and the building contractor (`build_construction_database`, ten
tables), made as goals held-out set 15 before the sampler was run on either, with names and ids both present, codes,
quantities in several units and keys no schema declares: growers (a name repeated in two regions, contract numbers,
NULL vineyard hectares and joining years, an organic flag), grape varieties keyed by a code (colours, ripening
weeks), blocks keyed by grower and block number (repeated block names, hectares, vine counts, NULL planting years),
staff (role codes, NULL WSET levels), 520 grape intakes referring to a block by a two-column foreign key (kilograms,
degrees Brix, NULL temperatures in Celsius, docket references), tanks keyed by an id and a code (litres of capacity),
71 wine lots keyed by a code (litres of must, alcohol percentages, pH, sulphur in mg/l, months in barrel, NULLs of the
unfinished vintage; `winemaker` a staff id no key declares, sharing no word with `staff`), a lot-intake link (composite
key, litres pressed), wines (SKUs, bottle sizes in ml, bottle counts, prices) and 400 shipments keyed by a reference
(customer names repeated over countries, cases, pallet kilograms, invoice amounts); trades keyed by a code (day
rates), 90 workers (repeated names, CSCS card numbers with NULLs, subcontractor and apprentice flags), 12 sites (names
repeated for two clients, postcodes, budgets, floor areas in square metres, storeys; `manager` a worker id no key
declares), suppliers (a name repeated in two towns, account numbers), materials keyed by a code (unit codes: m3,
tonnes, each, bags, sheets, metres, litres; unit costs, NULL weights per unit in kg), 600 deliveries (purchase order
references; `received_by` a worker id no key declares), delivery lines keyed by delivery and line number (quantities
in the material's unit, amounts), plant (fleet numbers, weights in tonnes, engine kW and bucket m3 with NULLs, hire
rates), plant hires keyed by site, plant and on-hire date (NULL off-hire dates and litres of fuel) and ~1,600 daily
timesheets keyed by worker and date (hours, overtime hours, an approved flag).

Usage: .venv/bin/python bench/goal_quality_db.py OUT.sqlite [--seed 35]
           [--database hotel|football|clinic|library|logistics|museum|school|airline|retail|transit|grants|vet|festival|
                       brewery|energy|telecom|farm|estate|gym|conference|fleet|
                       restaurant|tracker|rental|charity|orchestra|bakery|
                       pharmacy|marina|ferry|cinema|campsite|auction|insurer|bikeshare|winery|construction]
"""

import argparse
import contextlib
import random
import sqlite3
from datetime import date, datetime, timedelta
from pathlib import Path


@contextlib.contextmanager
def _fresh_database(path: str | Path, schema: str, seed: int):
    """What every builder below starts and ends with: a new SQLite file at `path` (replacing it) holding `schema`, and
    the random numbers of `seed` (the same seed gives the same file), as (connection, rng); committed and closed when
    the block ends."""
    path = Path(path)
    path.unlink(missing_ok=True)
    rng = random.Random(seed)
    connection = sqlite3.connect(path)
    try:
        connection.executescript(schema)
        yield connection, rng
        connection.commit()
    finally:
        connection.close()


SCHEMA = """
CREATE TABLE hotel (
    hotel_id INTEGER PRIMARY KEY,
    hotel_name TEXT NOT NULL UNIQUE,
    city TEXT NOT NULL,
    zip_code INTEGER,
    star_rating INTEGER,
    opened_year INTEGER,
    phone TEXT
);
CREATE TABLE room (
    room_id INTEGER PRIMARY KEY,
    hotel_id INTEGER NOT NULL REFERENCES hotel (hotel_id),
    room_no INTEGER NOT NULL,
    flr INTEGER NOT NULL,
    room_type TEXT NOT NULL,
    nightly_rate REAL NOT NULL,
    max_guests INTEGER NOT NULL
);
CREATE TABLE guest (
    guest_id INTEGER PRIMARY KEY,
    full_name TEXT NOT NULL UNIQUE,
    gender TEXT NOT NULL,
    birth_year INTEGER,
    country_code TEXT,
    loyalty_no INTEGER UNIQUE,
    member_since_yr INTEGER
);
CREATE TABLE booking (
    booking_id INTEGER PRIMARY KEY,
    guest_id INTEGER NOT NULL REFERENCES guest (guest_id),
    room_id INTEGER NOT NULL REFERENCES room (room_id),
    check_in TEXT NOT NULL,
    nights INTEGER NOT NULL,
    total_price REAL NOT NULL,
    status TEXT NOT NULL,
    channel_code TEXT NOT NULL
);
CREATE TABLE service (
    service_id INTEGER PRIMARY KEY,
    service_name TEXT NOT NULL UNIQUE,
    category TEXT NOT NULL,
    price REAL NOT NULL
);
CREATE TABLE booking_service (
    booking_id INTEGER NOT NULL REFERENCES booking (booking_id),
    service_id INTEGER NOT NULL REFERENCES service (service_id),
    quantity INTEGER NOT NULL,
    PRIMARY KEY (booking_id, service_id)
);
CREATE TABLE amenity (
    amenity_id INTEGER PRIMARY KEY,
    amenity_name TEXT NOT NULL UNIQUE,
    amenity_code TEXT NOT NULL UNIQUE
);
CREATE TABLE room_amenity (
    room_id INTEGER NOT NULL REFERENCES room (room_id),
    amenity_id INTEGER NOT NULL REFERENCES amenity (amenity_id),
    PRIMARY KEY (room_id, amenity_id)
);
"""

HOTELS = [
    ("Harbour Lights", "Lisbon", 1100),
    ("The Old Mill", "Porto", 4000),
    ("Alpine Lodge", "Innsbruck", 6020),
    ("Canal House", "Amsterdam", 1012),
    ("Seaside Grand", "Nice", 6000),
    ("Park Terrace", "Vienna", 1010),
    ("Riverside Inn", "Porto", 4050),
    ("Castle View", "Edinburgh", 1234),
]
FIRST = {
    "F": ["Ana", "Maria", "Sofia", "Lena", "Emma", "Claire", "Ines", "Julia", "Nora", "Eva", "Chloe", "Marta"],
    "M": ["João", "Pedro", "Lukas", "Jan", "Hugo", "Tom", "Rui", "Felix", "Liam", "Noah", "Paul", "Marco"],
}
LAST = [
    "Silva", "Santos", "Müller", "de Vries", "Martin", "Bernard", "Gruber", "Smith", "Brown", "Costa",
    "Wagner", "Janssen", "Dubois", "Taylor", "Ferreira", "Huber", "Bakker", "Moreau", "Wilson", "Pereira",
]  # fmt: skip
COUNTRIES = ["PT", "DE", "NL", "FR", "AT", "GB", "US", "ES", "IT"]
ROOM_TYPES = [("Single", 1, 80.0), ("Double", 2, 120.0), ("Family", 4, 170.0), ("Suite", 3, 260.0)]
SERVICES = [
    ("Breakfast buffet", "Food", 18.0),
    ("Dinner menu", "Food", 42.0),
    ("Room service", "Food", 25.0),
    ("Spa access", "Wellness", 35.0),
    ("Massage", "Wellness", 70.0),
    ("Sauna", "Wellness", 15.0),
    ("Airport transfer", "Transport", 45.0),
    ("Bike rental", "Transport", 12.0),
    ("Parking", "Transport", 20.0),
    ("Laundry", "Housekeeping", 16.0),
    ("Late checkout", "Housekeeping", 30.0),
    ("City tour", "Leisure", 55.0),
]
AMENITIES = [
    ("Wi-Fi", "WIFI"),
    ("Minibar", "MBAR"),
    ("Balcony", "BALC"),
    ("Sea view", "SVIEW"),
    ("Bathtub", "BTUB"),
    ("Air conditioning", "AC"),
    ("Coffee machine", "COFF"),
    ("Safe", "SAFE"),
    ("Kitchenette", "KITCH"),
    ("Desk", "DESK"),
]


def _hotel_bookings(connection: sqlite3.Connection, rng: random.Random, rooms: list, guests: list) -> None:
    """The bookings, the services booked with them, the amenities and the rooms' amenities."""
    start = date(2024, 1, 1)
    for booking_id in range(1, 1001):
        room, rate = rng.choice(rooms)
        nights = rng.choice([1, 1, 2, 2, 2, 3, 3, 4, 5, 7, 10, 14])
        status = rng.choices(["completed", "cancelled", "confirmed", "no-show"], weights=[70, 12, 15, 3])[0]
        connection.execute(
            "INSERT INTO booking VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                booking_id,
                rng.choice(guests),
                room,
                (start + timedelta(days=rng.randint(0, 700))).isoformat(),
                nights,
                round(rate * nights, 2),
                status,
                rng.choices(["WEB", "TEL", "AGT", "OTA"], weights=[50, 10, 15, 25])[0],
            ),
        )
    for service_id, (name, category, price) in enumerate(SERVICES, start=1):
        connection.execute("INSERT INTO service VALUES (?, ?, ?, ?)", (service_id, name, category, price))
    for booking_id in range(1, 1001):
        for service_id in rng.sample(range(1, len(SERVICES) + 1), rng.choice([0, 0, 1, 1, 2, 3])):
            connection.execute(
                "INSERT INTO booking_service VALUES (?, ?, ?)", (booking_id, service_id, rng.randint(1, 4))
            )
    for amenity_id, (name, code) in enumerate(AMENITIES, start=1):
        connection.execute("INSERT INTO amenity VALUES (?, ?, ?)", (amenity_id, name, code))
    for room, _rate in rooms:
        for amenity_id in rng.sample(range(1, len(AMENITIES) + 1), rng.randint(2, 6)):
            connection.execute("INSERT INTO room_amenity VALUES (?, ?)", (room, amenity_id))


def build_hotel_database(path: str | Path, seed: int = 35) -> Path:
    """Write the hotel database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, SCHEMA, seed) as (connection, rng):
        for hotel_id, (name, city, zip_code) in enumerate(HOTELS, start=1):
            connection.execute(
                "INSERT INTO hotel VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    hotel_id,
                    name,
                    city,
                    zip_code,
                    rng.choice([3, 3, 4, 4, 4, 5]),
                    rng.randint(1962, 2019),
                    f"+{rng.randint(30, 49)} {rng.randint(100, 999)} {rng.randint(100000, 999999)}",
                ),
            )
        room_id = 0
        rooms = []
        for hotel_id in range(1, len(HOTELS) + 1):
            for floor in range(1, rng.randint(3, 7) + 1):
                for number in range(1, rng.randint(3, 6) + 1):
                    room_id += 1
                    kind, guests, rate = rng.choices(ROOM_TYPES, weights=[3, 6, 2, 1])[0]
                    rate = round(rate * rng.uniform(0.8, 1.5), 2)
                    rooms.append((room_id, rate))
                    connection.execute(
                        "INSERT INTO room VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (room_id, hotel_id, floor * 100 + number, floor, kind, rate, guests),
                    )
        names = set()
        guests = []
        while len(guests) < 260:
            gender = rng.choice("MF")
            name = f"{rng.choice(FIRST[gender])} {rng.choice(LAST)}"
            if name in names:
                continue
            names.add(name)
            guest_id = len(guests) + 1
            guests.append(guest_id)
            member = rng.random() < 0.6
            connection.execute(
                "INSERT INTO guest VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    guest_id,
                    name,
                    gender,
                    rng.randint(1945, 2004),
                    rng.choice(COUNTRIES),
                    700000 + guest_id if member else None,
                    rng.randint(2008, 2025) if member else None,
                ),
            )
        _hotel_bookings(connection, rng, rooms, guests)
    return Path(path)


FOOTBALL_SCHEMA = """
CREATE TABLE stadium (
    stadium_id INTEGER PRIMARY KEY,
    stadium_name TEXT NOT NULL UNIQUE,
    city TEXT NOT NULL,
    capacity INTEGER,
    opened INTEGER
);
CREATE TABLE club (
    club_id INTEGER PRIMARY KEY,
    club_name TEXT NOT NULL UNIQUE,
    short_code TEXT NOT NULL UNIQUE,
    founded_year INTEGER NOT NULL,
    stadium_id INTEGER NOT NULL REFERENCES stadium (stadium_id),
    colours TEXT
);
CREATE TABLE player (
    player_id INTEGER PRIMARY KEY,
    full_name TEXT NOT NULL UNIQUE,
    birth_date TEXT NOT NULL,
    nationality TEXT,
    position TEXT NOT NULL,
    foot TEXT NOT NULL,
    height_cm INTEGER,
    caps_no INTEGER NOT NULL,
    registration_no INTEGER NOT NULL UNIQUE
);
CREATE TABLE contract (
    player_id INTEGER NOT NULL REFERENCES player (player_id),
    club_id INTEGER NOT NULL REFERENCES club (club_id),
    season_yr INTEGER NOT NULL,
    shirt_no INTEGER NOT NULL,
    weekly_wage INTEGER NOT NULL,
    PRIMARY KEY (player_id, club_id, season_yr)
);
CREATE TABLE referee (
    referee_id INTEGER PRIMARY KEY,
    referee_name TEXT NOT NULL UNIQUE,
    licence_grade INTEGER NOT NULL,
    region_code INTEGER,
    debut_year INTEGER
);
CREATE TABLE fixture (
    fixture_id INTEGER PRIMARY KEY,
    season_yr INTEGER NOT NULL,
    matchday INTEGER NOT NULL,
    kickoff TEXT NOT NULL,
    home_club_id INTEGER NOT NULL REFERENCES club (club_id),
    away_club_id INTEGER NOT NULL REFERENCES club (club_id),
    referee_id INTEGER REFERENCES referee (referee_id),
    home_goals INTEGER NOT NULL,
    away_goals INTEGER NOT NULL,
    attendance INTEGER
);
CREATE TABLE appearance (
    fixture_id INTEGER NOT NULL REFERENCES fixture (fixture_id),
    player_id INTEGER NOT NULL REFERENCES player (player_id),
    minutes_played INTEGER NOT NULL,
    started TEXT NOT NULL,
    PRIMARY KEY (fixture_id, player_id)
);
CREATE TABLE goal_event (
    goal_event_id INTEGER PRIMARY KEY,
    fixture_id INTEGER NOT NULL REFERENCES fixture (fixture_id),
    player_id INTEGER NOT NULL REFERENCES player (player_id),
    minute INTEGER NOT NULL,
    kind TEXT NOT NULL
);
CREATE TABLE booking_card (
    fixture_id INTEGER NOT NULL REFERENCES fixture (fixture_id),
    player_id INTEGER NOT NULL REFERENCES player (player_id),
    minute INTEGER NOT NULL,
    colour TEXT NOT NULL,
    PRIMARY KEY (fixture_id, player_id, minute)
);
"""

CLUBS = [
    ("Northbridge Rovers", "NBR", "Northbridge", "blue and white"),
    ("Eastfield United", "EFU", "Eastfield", "red"),
    ("Port Ellis Athletic", "PEA", "Port Ellis", None),
    ("Kingsmoor Town", "KMT", "Kingsmoor", "yellow and black"),
    ("Ashby Wanderers", "ASW", "Ashby", "green"),
    ("Redcliff City", "RCC", "Redcliff", "sky blue"),
    ("Harlow Vale", "HVA", "Harlow", "claret"),
    ("Southgate Albion", "SGA", "Southgate", "white"),
    ("Millbrook Borough", "MBB", "Millbrook", None),
    ("Westerly FC", "WFC", "Westerly", "orange"),
]
STADIUMS = [
    ("Bridge Park", "Northbridge", 32000, 1923),
    ("The Foundry", "Eastfield", 27500, 1998),
    ("Ellis Road", "Port Ellis", None, 1908),
    ("Moor Lane", "Kingsmoor", 18400, 1931),
    ("Wanderers Ground", "Ashby", 12150, 1956),
    ("Cliff Top Arena", "Redcliff", 41000, 2006),
    ("Vale Stadium", "Harlow", 15800, 1972),
    ("Albion Fields", "Southgate", None, 1899),
    ("Borough Meadow", "Millbrook", 9800, 1964),
]
PLAYER_FIRST = [
    "Adam",
    "Ben",
    "Carlos",
    "Dario",
    "Eli",
    "Finn",
    "Goran",
    "Hamza",
    "Ivan",
    "Jonas",
    "Kofi",
    "Luca",
    "Mateo",
    "Nils",
    "Omar",
    "Pavel",
    "Quinn",
    "Rafael",
    "Sami",
    "Theo",
    "Ugo",
    "Viktor",
    "Wes",
    "Yusuf",
]
PLAYER_LAST = [
    "Abbott",
    "Baker",
    "Costa",
    "Diallo",
    "Evans",
    "Fischer",
    "Garcia",
    "Hughes",
    "Ibrahim",
    "Jensen",
    "Kovac",
    "Lindqvist",
    "Mensah",
    "Novak",
    "Okafor",
    "Perez",
    "Quinn",
    "Rossi",
    "Silva",
    "Turner",
    "Usman",
    "Varga",
    "Walsh",
    "Young",
]
NATIONALITIES = ["ENG", "ENG", "ENG", "SCO", "IRL", "WAL", "FRA", "ESP", "NGA", "GHA", "BRA", "NED", "DEN", "POL"]
POSITIONS = ["GK"] * 3 + ["DF"] * 8 + ["MF"] * 8 + ["FW"] * 6
REFEREES = [
    "Alan Marsh",
    "Beth Lowry",
    "Colin Pratt",
    "Dev Sharma",
    "Erin Cole",
    "Frank Hale",
    "Grace Oduya",
    "Hugh Bennet",
    "Iris Kane",
    "Joel Webb",
    "Kate Morrow",
    "Liam Stroud",
]


def _football_players(connection: sqlite3.Connection, rng: random.Random) -> list[int]:
    names: set[str] = set()
    players: list[int] = []
    while len(players) < 250:
        name = f"{rng.choice(PLAYER_FIRST)} {rng.choice(PLAYER_LAST)}"
        if name in names:
            continue
        names.add(name)
        player_id = len(players) + 1
        position = rng.choice(POSITIONS)
        height = rng.randint(185, 198) if position == "GK" else rng.randint(166, 194)
        born = date(1988, 1, 1) + timedelta(days=rng.randint(0, 5800))
        players.append(player_id)
        connection.execute(
            "INSERT INTO player VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                player_id,
                name,
                born.isoformat(),
                rng.choice(NATIONALITIES) if rng.random() < 0.9 else None,
                position,
                rng.choices(["right", "left", "both"], weights=[70, 25, 5])[0],
                height if rng.random() < 0.93 else None,
                rng.choices([0, rng.randint(1, 12), rng.randint(13, 90)], weights=[60, 28, 12])[0],
                rng.randint(100000, 999999) * 10 + player_id % 10,
            ),
        )
    return players


def _football_contracts(connection: sqlite3.Connection, rng: random.Random, players: list[int]) -> dict:
    """Each season's squads, (season, club) -> players, written as contracts."""
    squads: dict[tuple[int, int], list[int]] = {}
    for season in (2023, 2024):
        order = list(players)
        rng.shuffle(order)
        for position, player_id in enumerate(order[:240]):
            squads.setdefault((season, position % len(CLUBS) + 1), []).append(player_id)
        for (squad_season, club_id), members in squads.items():
            if squad_season != season:
                continue
            shirts = rng.sample(range(1, 40), len(members))
            for player_id, shirt in zip(members, shirts, strict=True):
                connection.execute(
                    "INSERT INTO contract VALUES (?, ?, ?, ?, ?)",
                    (player_id, club_id, season, shirt, rng.randrange(8, 160) * 500),
                )
    return squads


def _football_side(connection: sqlite3.Connection, rng: random.Random, fixture_id: int, squad: list, scored: int):
    """One club's appearances, goals and cards in a fixture."""
    playing = rng.sample(squad, min(len(squad), rng.randint(13, 16)))
    for position, player_id in enumerate(playing):
        started = position < 11
        minutes = rng.choice([90, 90, 90, 85, 78, 70, 64]) if started else rng.randint(5, 35)
        connection.execute(
            "INSERT INTO appearance VALUES (?, ?, ?, ?)", (fixture_id, player_id, minutes, "yes" if started else "no")
        )
    kinds = ["open play", "header", "penalty", "free kick", "own goal"]
    for _ in range(scored):
        kind = rng.choices(kinds, [60, 20, 10, 6, 4])[0]
        connection.execute(
            "INSERT INTO goal_event (fixture_id, player_id, minute, kind) VALUES (?, ?, ?, ?)",
            (fixture_id, rng.choice(playing), rng.randint(1, 94), kind),
        )
    for player_id in rng.sample(playing, rng.choice([0, 1, 1, 2, 2, 3])):
        connection.execute(
            "INSERT INTO booking_card VALUES (?, ?, ?, ?)",
            (fixture_id, player_id, rng.randint(3, 93), rng.choices(["yellow", "red"], [93, 7])[0]),
        )


def _football_fixtures(connection: sqlite3.Connection, rng: random.Random, squads: dict) -> None:
    fixture_id = 0
    for season in (2023, 2024):
        pairs = [(home, away) for home in range(1, 11) for away in range(1, 11) if home != away]
        rng.shuffle(pairs)
        start = date(season, 8, 5)
        for number, (home, away) in enumerate(pairs):
            fixture_id += 1
            matchday = number // 5 + 1
            kickoff = start + timedelta(days=7 * (matchday - 1) + rng.choice([0, 0, 1, -1]))
            home_goals = rng.choices(range(6), weights=[22, 33, 25, 12, 6, 2])[0]
            away_goals = rng.choices(range(5), weights=[32, 35, 20, 9, 4])[0]
            capacity = STADIUMS[home - 1][2] if home <= len(STADIUMS) else STADIUMS[5][2]
            attendance = int((capacity or 20000) * rng.uniform(0.55, 1.0)) if rng.random() < 0.9 else None
            referee = rng.randint(1, len(REFEREES)) if rng.random() < 0.95 else None
            connection.execute(
                "INSERT INTO fixture VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (fixture_id, season, matchday, kickoff.isoformat(), home, away, referee, home_goals, away_goals)
                + (attendance,),
            )
            for club_id, scored in ((home, home_goals), (away, away_goals)):
                _football_side(connection, rng, fixture_id, squads[(season, club_id)], scored)


def build_football_database(path: str | Path, seed: int = 35) -> Path:
    """Write the football league database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, FOOTBALL_SCHEMA, seed) as (connection, rng):
        for stadium_id, (name, city, capacity, opened) in enumerate(STADIUMS, start=1):
            connection.execute("INSERT INTO stadium VALUES (?, ?, ?, ?, ?)", (stadium_id, name, city, capacity, opened))
        for club_id, (name, code, _city, colours) in enumerate(CLUBS, start=1):
            stadium = club_id if club_id <= len(STADIUMS) else 6  # the tenth club shares the largest ground
            founded = rng.randint(1870, 1935)
            connection.execute(
                "INSERT INTO club VALUES (?, ?, ?, ?, ?, ?)", (club_id, name, code, founded, stadium, colours)
            )
        squads = _football_contracts(connection, rng, _football_players(connection, rng))
        for referee_id, name in enumerate(REFEREES, start=1):
            grade = rng.choice([1, 1, 2, 2, 2, 3, 3, 4])
            region = rng.choice([11, 12, 21, 22, 31]) if rng.random() < 0.8 else None
            debut = rng.randint(2001, 2021) if rng.random() < 0.85 else None
            connection.execute("INSERT INTO referee VALUES (?, ?, ?, ?, ?)", (referee_id, name, grade, region, debut))
        _football_fixtures(connection, rng, squads)
    return Path(path)


CLINIC_SCHEMA = """
CREATE TABLE department (
    dept_code TEXT PRIMARY KEY,
    dept_name TEXT NOT NULL UNIQUE,
    floor_no INTEGER NOT NULL,
    wing TEXT NOT NULL,
    head_doctor_id INTEGER REFERENCES doctor (doctor_id)
);
CREATE TABLE doctor (
    doctor_id INTEGER PRIMARY KEY,
    doctor_name TEXT NOT NULL UNIQUE,
    dept_code TEXT NOT NULL REFERENCES department (dept_code),
    grade_level INTEGER NOT NULL,
    licence_no INTEGER NOT NULL UNIQUE,
    hired_year INTEGER NOT NULL,
    on_call INTEGER NOT NULL
);
CREATE TABLE patient (
    patient_id INTEGER PRIMARY KEY,
    patient_name TEXT NOT NULL,
    sex TEXT NOT NULL,
    birth_year INTEGER NOT NULL,
    postcode TEXT,
    blood_group TEXT,
    insured INTEGER NOT NULL,
    smoker INTEGER
);
CREATE TABLE appointment (
    appointment_id INTEGER PRIMARY KEY,
    patient_id INTEGER NOT NULL REFERENCES patient (patient_id),
    doctor_id INTEGER NOT NULL REFERENCES doctor (doctor_id),
    appt_date TEXT NOT NULL,
    slot_no INTEGER NOT NULL,
    status_code TEXT NOT NULL,
    fee REAL NOT NULL
);
CREATE TABLE diagnosis (
    icd_code TEXT PRIMARY KEY,
    description TEXT NOT NULL UNIQUE,
    chapter TEXT NOT NULL,
    chronic INTEGER NOT NULL
);
CREATE TABLE appointment_diagnosis (
    appointment_id INTEGER NOT NULL REFERENCES appointment (appointment_id),
    icd_code TEXT NOT NULL REFERENCES diagnosis (icd_code),
    rank_no INTEGER NOT NULL,
    PRIMARY KEY (appointment_id, icd_code)
);
CREATE TABLE medication (
    medication_id INTEGER PRIMARY KEY,
    drug_name TEXT NOT NULL UNIQUE,
    atc_code TEXT NOT NULL UNIQUE,
    dosage_form TEXT NOT NULL,
    unit_price REAL NOT NULL
);
CREATE TABLE prescription (
    appointment_id INTEGER NOT NULL REFERENCES appointment (appointment_id),
    line_no INTEGER NOT NULL,
    medication_id INTEGER NOT NULL REFERENCES medication (medication_id),
    dose_mg INTEGER NOT NULL,
    days_supplied INTEGER NOT NULL,
    refills INTEGER NOT NULL,
    PRIMARY KEY (appointment_id, line_no)
);
"""

DEPARTMENTS = [
    ("CARD", "Cardiology", 3, "East"),
    ("DERM", "Dermatology", 1, "West"),
    ("GP", "General practice", 0, "North"),
    ("ORTH", "Orthopaedics", 2, "East"),
    ("PAED", "Paediatrics", 1, "North"),
    ("RESP", "Respiratory medicine", 4, "West"),
]
DOCTOR_NAMES = [
    "Dr Amelia Hart", "Dr Bruno Keller", "Dr Chen Wei", "Dr Dana Okoro", "Dr Emil Sato", "Dr Fatima Rahman",
    "Dr George Lind", "Dr Hana Novak", "Dr Idris Bello", "Dr Julia Moretti", "Dr Karl Berg", "Dr Leila Haddad",
    "Dr Marcus Reed", "Dr Nina Petrova", "Dr Oscar Diaz", "Dr Priya Nair", "Dr Rosa Almeida", "Dr Sven Holm",
    "Dr Tara Quinn", "Dr Umar Farooq", "Dr Vera Kuznetsova", "Dr Will Osei",
]  # fmt: skip
PATIENT_FIRST = {
    "F": ["Alice", "Beatriz", "Chloe", "Daria", "Elena", "Fiona", "Grace", "Hannah", "Isla", "Jade", "Kira", "Lucy"],
    "M": ["Aaron", "Boris", "Caleb", "David", "Ethan", "Farid", "Gabriel", "Henry", "Isaac", "Jack", "Kai", "Leo"],
}
PATIENT_LAST = [
    "Adams", "Bauer", "Clarke", "Dias", "Evans", "Ford", "Green", "Hall", "Ito", "Jones", "King", "Lopez",
    "Moore", "Nash", "Owens", "Price", "Reyes", "Shaw", "Turner", "Vance",
]  # fmt: skip
DIAGNOSES = [
    ("I10", "Essential hypertension", "Circulatory", 1, "CARD"),
    ("I48", "Atrial fibrillation", "Circulatory", 1, "CARD"),
    ("I20", "Angina pectoris", "Circulatory", 1, "CARD"),
    ("L20", "Atopic dermatitis", "Skin", 1, "DERM"),
    ("L40", "Psoriasis", "Skin", 1, "DERM"),
    ("L70", "Acne", "Skin", 0, "DERM"),
    ("J06", "Upper respiratory infection", "Respiratory", 0, "GP"),
    ("E11", "Type 2 diabetes", "Endocrine", 1, "GP"),
    ("R51", "Headache", "Symptoms", 0, "GP"),
    ("M54", "Back pain", "Musculoskeletal", 0, "ORTH"),
    ("S82", "Fracture of lower leg", "Injury", 0, "ORTH"),
    ("M17", "Osteoarthritis of knee", "Musculoskeletal", 1, "ORTH"),
    ("J45", "Asthma", "Respiratory", 1, "RESP"),
    ("J44", "Chronic obstructive pulmonary disease", "Respiratory", 1, "RESP"),
    ("J18", "Pneumonia", "Respiratory", 0, "RESP"),
    ("H66", "Otitis media", "Ear", 0, "PAED"),
]
MEDICATIONS = [
    ("Amlodipine", "C08CA01", "tablet", 0.12),
    ("Bisoprolol", "C07AB07", "tablet", 0.09),
    ("Apixaban", "B01AF02", "tablet", 1.85),
    ("Metformin", "A10BA02", "tablet", 0.05),
    ("Salbutamol", "R03AC02", "inhaler", 4.20),
    ("Budesonide", "R03BA02", "inhaler", 9.80),
    ("Amoxicillin", "J01CA04", "capsule", 0.21),
    ("Ibuprofen", "M01AE01", "tablet", 0.04),
    ("Paracetamol", "N02BE01", "tablet", 0.02),
    ("Hydrocortisone cream", "D07AA02", "cream", 3.10),
    ("Isotretinoin", "D10BA01", "capsule", 1.40),
    ("Methotrexate", "L04AX03", "tablet", 0.65),
    ("Prednisolone", "H02AB06", "tablet", 0.08),
    ("Azithromycin", "J01FA10", "tablet", 0.90),
]
DOSES = {"tablet": [5, 10, 20, 50, 500], "capsule": [250, 500], "inhaler": [100, 200], "cream": [1]}


def _clinic_people(connection: sqlite3.Connection, rng: random.Random) -> tuple[dict, list]:
    """Departments, doctors (department -> its doctors) and patients (their ids)."""
    for code, name, floor, wing in DEPARTMENTS:
        connection.execute("INSERT INTO department VALUES (?, ?, ?, ?, NULL)", (code, name, floor, wing))
    staff: dict[str, list[int]] = {}
    for doctor_id, name in enumerate(DOCTOR_NAMES, start=1):
        code = DEPARTMENTS[(doctor_id - 1) % len(DEPARTMENTS)][0] if doctor_id <= 18 else rng.choice(["GP", "PAED"])
        staff.setdefault(code, []).append(doctor_id)
        connection.execute(
            "INSERT INTO doctor VALUES (?, ?, ?, ?, ?, ?, ?)",
            (doctor_id, name, code, rng.choice([1, 2, 2, 3, 3, 4, 5]), rng.randint(1000000, 9999999),
             rng.randint(1994, 2024), rng.choices([0, 1], weights=[70, 30])[0]),
        )  # fmt: skip
    for code, doctors in staff.items():
        connection.execute("UPDATE department SET head_doctor_id = ? WHERE dept_code = ?", (doctors[0], code))
    patients = []
    for patient_id in range(1, 321):
        sex = rng.choice("FM")
        born = rng.randint(1938, 2022)
        patients.append((patient_id, born))
        outward = f"{rng.choice('ABEGKN')}{rng.randint(1, 19)}"
        postcode = f"{outward} {rng.randint(1, 9)}{rng.choice('ABDFHJLNPRTW')}{rng.choice('ABDFHJ')}"
        blood = rng.choices(["O+", "A+", "B+", "AB+", "O-", "A-"], weights=[38, 34, 9, 3, 8, 8])[0]
        insured = rng.choices([1, 0], weights=[85, 15])[0]
        smoker = None if born > 2006 else rng.choices([0, 1], weights=[78, 22])[0]
        name = f"{rng.choice(PATIENT_FIRST[sex])} {rng.choice(PATIENT_LAST)}"
        connection.execute(
            "INSERT INTO patient VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (patient_id, name, sex, born, postcode if rng.random() < 0.95 else None,
             blood if rng.random() < 0.8 else None, insured, smoker),
        )  # fmt: skip
    return staff, patients


def _clinic_visit(connection: sqlite3.Connection, rng: random.Random, appointment_id: int, dept: str) -> None:
    """An attended appointment's diagnoses (ranked) and prescription lines."""
    pool = [row for row in DIAGNOSES if row[4] in ({dept, "GP"} if dept == "PAED" else {dept})]
    chosen = rng.sample(pool, min(len(pool), rng.choice([1, 1, 1, 2, 2, 3])))
    for rank, row in enumerate(chosen, start=1):
        connection.execute("INSERT INTO appointment_diagnosis VALUES (?, ?, ?)", (appointment_id, row[0], rank))
    for line in range(1, rng.choice([0, 1, 1, 1, 2, 3]) + 1):
        medication_id = rng.randint(1, len(MEDICATIONS))
        form = MEDICATIONS[medication_id - 1][2]
        connection.execute(
            "INSERT INTO prescription VALUES (?, ?, ?, ?, ?, ?)",
            (appointment_id, line, medication_id, rng.choice(DOSES[form]), rng.choice([5, 7, 10, 14, 28, 56, 90]),
             rng.choices([0, 1, 2, 3, 5], weights=[50, 20, 15, 10, 5])[0]),
        )  # fmt: skip


def build_clinic_database(path: str | Path, seed: int = 35) -> Path:
    """Write the clinic database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, CLINIC_SCHEMA, seed) as (connection, rng):
        for name, atc, form, price in MEDICATIONS:
            connection.execute(
                "INSERT INTO medication (drug_name, atc_code, dosage_form, unit_price) VALUES (?, ?, ?, ?)",
                (name, atc, form, price),
            )
        for code, description, chapter, chronic, _dept in DIAGNOSES:
            connection.execute("INSERT INTO diagnosis VALUES (?, ?, ?, ?)", (code, description, chapter, chronic))
        staff, patients = _clinic_people(connection, rng)
        doctors = {doctor_id: dept for dept, ids in staff.items() for doctor_id in ids}
        start = date(2025, 1, 6)
        for appointment_id in range(1, 1301):
            patient_id, born = rng.choice(patients)
            dept = "PAED" if born > 2008 and rng.random() < 0.8 else rng.choice([code for code, *_ in DEPARTMENTS])
            doctor_id = rng.choice(staff[dept])
            status = rng.choices(["ATT", "CNL", "DNA", "BKD"], weights=[74, 11, 6, 9])[0]
            connection.execute(
                "INSERT INTO appointment VALUES (?, ?, ?, ?, ?, ?, ?)",
                (appointment_id, patient_id, doctor_id, (start + timedelta(days=rng.randint(0, 320))).isoformat(),
                 rng.randint(1, 16), status, rng.choice([0.0, 35.0, 60.0, 60.0, 85.0, 120.0])),
            )  # fmt: skip
            if status == "ATT":
                _clinic_visit(connection, rng, appointment_id, doctors[doctor_id])
    return Path(path)


LIBRARY_SCHEMA = """
CREATE TABLE branch (
    branch_id INTEGER PRIMARY KEY,
    branch_name TEXT NOT NULL UNIQUE,
    city TEXT NOT NULL,
    postcode TEXT,
    opened_year INTEGER NOT NULL,
    floor_count INTEGER NOT NULL,
    has_cafe INTEGER NOT NULL
);
CREATE TABLE member (
    member_id INTEGER PRIMARY KEY,
    card_no TEXT NOT NULL UNIQUE,
    full_name TEXT NOT NULL,
    birth_year INTEGER,
    member_type TEXT NOT NULL,
    home_branch_id INTEGER NOT NULL REFERENCES branch (branch_id),
    joined_date TEXT NOT NULL,
    email TEXT,
    active INTEGER NOT NULL
);
CREATE TABLE author (
    author_id INTEGER PRIMARY KEY,
    author_name TEXT NOT NULL,
    birth_year INTEGER,
    nationality TEXT
);
CREATE TABLE book (
    isbn TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    publisher TEXT NOT NULL,
    pub_year INTEGER NOT NULL,
    dewey_code TEXT,
    language_code TEXT NOT NULL,
    page_count INTEGER,
    edition_no INTEGER NOT NULL
);
CREATE TABLE book_author (
    isbn TEXT NOT NULL REFERENCES book (isbn),
    author_id INTEGER NOT NULL REFERENCES author (author_id),
    author_order INTEGER NOT NULL,
    PRIMARY KEY (isbn, author_id)
);
CREATE TABLE copy (
    copy_id INTEGER PRIMARY KEY,
    isbn TEXT NOT NULL REFERENCES book (isbn),
    branch_id INTEGER NOT NULL REFERENCES branch (branch_id),
    barcode INTEGER NOT NULL UNIQUE,
    shelf_no INTEGER NOT NULL,
    acquired_date TEXT NOT NULL,
    condition_grade INTEGER NOT NULL,
    withdrawn INTEGER NOT NULL
);
CREATE TABLE loan (
    loan_id INTEGER PRIMARY KEY,
    copy_id INTEGER NOT NULL REFERENCES copy (copy_id),
    member_id INTEGER NOT NULL REFERENCES member (member_id),
    loan_date TEXT NOT NULL,
    due_date TEXT NOT NULL,
    return_date TEXT,
    renewals INTEGER NOT NULL
);
CREATE TABLE reservation (
    member_id INTEGER NOT NULL REFERENCES member (member_id),
    isbn TEXT NOT NULL REFERENCES book (isbn),
    reserved_date TEXT NOT NULL,
    queue_position INTEGER NOT NULL,
    pickup_branch_id INTEGER NOT NULL REFERENCES branch (branch_id),
    status TEXT NOT NULL,
    PRIMARY KEY (member_id, isbn, reserved_date)
);
CREATE TABLE fine (
    fine_id INTEGER PRIMARY KEY,
    loan_id INTEGER NOT NULL REFERENCES loan (loan_id),
    reason_code TEXT NOT NULL,
    amount REAL NOT NULL,
    paid INTEGER NOT NULL,
    paid_date TEXT
);
"""

BRANCHES = [
    ("Central Library", "Leeds", "LS1 3AB", 1884, 4, 1),
    ("Headingley", "Leeds", "LS6 2QB", 1931, 1, 0),
    ("Chapel Allerton", "Leeds", None, 1904, 2, 0),
    ("Harrogate Road", "Harrogate", "HG1 1EG", 1972, 1, 1),
    ("Otley", "Otley", "LS21 3AN", 2011, 2, 1),
]
MEMBER_FIRST = ["Amy", "Ben", "Carla", "Dev", "Erin", "Faisal", "Gwen", "Harun", "Ivy", "Jon", "Kate", "Liam", "Mei",
                "Noah", "Olga", "Pat"]  # fmt: skip
MEMBER_LAST = ["Ahmed", "Brown", "Clark", "Davies", "Evans", "Fox", "Gill", "Hughes", "Khan", "Lee", "Smith", "Wood"]
AUTHORS = [
    ("Hilary Mantel", 1952, "GB"), ("Kazuo Ishiguro", 1954, "GB"), ("Chimamanda Ngozi Adichie", 1977, "NG"),
    ("Haruki Murakami", 1949, "JP"), ("Margaret Atwood", 1939, "CA"), ("Terry Pratchett", 1948, "GB"),
    ("Neil Gaiman", 1960, "GB"), ("Elena Ferrante", None, "IT"), ("Mary Beard", 1955, "GB"),
    ("Yuval Noah Harari", 1976, "IL"), ("Julia Donaldson", 1948, "GB"), ("Axel Scheffler", 1957, "DE"),
    ("David Smith", 1961, None), ("David Smith", 1979, "US"), ("Zadie Smith", 1975, "GB"), ("Ali Smith", 1962, "GB"),
    ("Anonymous", None, None), ("Sally Rooney", 1991, "IE"),
]  # fmt: skip
# title, publisher, year, dewey, language, pages, edition, author ids in order
BOOKS = [
    ("Wolf Hall", "Fourth Estate", 2009, "823.92", "en", 653, 1, [1]),
    ("Wolf Hall", "Fourth Estate", 2010, "823.92", "en", 672, 2, [1]),
    ("Bring Up the Bodies", "Fourth Estate", 2012, "823.92", "en", 432, 1, [1]),
    ("Never Let Me Go", "Faber", 2005, "823.914", "en", 288, 1, [2]),
    ("Klara and the Sun", "Faber", 2021, "823.914", "en", 320, 1, [2]),
    ("Half of a Yellow Sun", "Fourth Estate", 2006, "823.92", "en", 448, 1, [3]),
    ("Americanah", "Fourth Estate", 2013, "823.92", "en", 477, 1, [3]),
    ("Norwegian Wood", "Vintage", 2000, "895.635", "en", 389, 1, [4]),
    ("Kafka on the Shore", "Vintage", 2005, "895.635", "en", 505, 1, [4]),
    ("The Handmaid's Tale", "Vintage", 1996, "813.54", "en", 324, 3, [5]),
    ("Good Omens", "Corgi", 2006, "823.914", "en", 416, 2, [6, 7]),
    ("Mort", "Corgi", 1988, "823.914", "en", 272, 1, [6]),
    ("Coraline", "Bloomsbury", 2002, None, "en", 163, 1, [7]),
    ("L'amica geniale", "Edizioni E/O", 2011, "853.92", "it", 331, 1, [8]),
    ("My Brilliant Friend", "Europa", 2012, "853.92", "en", 331, 1, [8]),
    ("SPQR", "Profile", 2015, "937", "en", 608, 1, [9]),
    ("Sapiens", "Harvill Secker", 2014, "909", "en", 443, 1, [10]),
    ("Sapiens", "Vintage", 2015, "909", "en", 498, 2, [10]),
    ("The Gruffalo", "Macmillan", 1999, None, "en", 32, 1, [11, 12]),
    ("Room on the Broom", "Macmillan", 2001, None, "en", 32, 1, [11, 12]),
    ("Der Grüffelo", "Beltz", 2002, None, "de", 32, 1, [11, 12]),
    ("Birdwatching in Yorkshire", "Dalesman", 1998, "598.0942", "en", None, 1, [13]),
    ("Cloud Computing Basics", "Apress", 2019, "004.6782", "en", 212, 2, [14]),
    ("White Teeth", "Hamish Hamilton", 2000, "823.914", "en", 448, 1, [15]),
    ("How to be both", "Hamish Hamilton", 2014, "823.92", "en", 372, 1, [16]),
    ("Beowulf", "Penguin", 2003, "829.3", "en", 213, 4, [17]),
    ("Normal People", "Faber", 2018, "823.92", "en", 266, 1, [18]),
    ("Conversations with Friends", "Faber", 2017, "823.92", "en", 321, 1, [18]),
]  # fmt: skip


def _library_isbn(rng: random.Random) -> str:
    digits = "978" + "".join(str(rng.randint(0, 9)) for _ in range(10))
    return digits


def _library_members(connection: sqlite3.Connection, rng: random.Random) -> list[int]:
    members = []
    for member_id in range(1, 241):
        kind = rng.choices(["ADT", "CHD", "SNR", "STU"], weights=[55, 15, 18, 12])[0]
        born = {"ADT": rng.randint(1960, 2005), "CHD": rng.randint(2011, 2020), "SNR": rng.randint(1935, 1960),
                "STU": rng.randint(2000, 2007)}[kind]  # fmt: skip
        name = f"{rng.choice(MEMBER_FIRST)} {rng.choice(MEMBER_LAST)}"
        address = f"{name.lower().replace(' ', '.')}{member_id}@mail.test"
        email = None if kind == "CHD" or rng.random() < 0.2 else address
        joined = date(2008, 1, 1) + timedelta(days=rng.randint(0, 6200))
        connection.execute(
            "INSERT INTO member VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (member_id, f"L{rng.randint(1000000, 9999999)}", name, born if rng.random() < 0.93 else None, kind,
             rng.choices(range(1, 6), weights=[40, 20, 15, 15, 10])[0], joined.isoformat(), email,
             rng.choices([1, 0], weights=[88, 12])[0]),
        )  # fmt: skip
        members.append(member_id)
    return members


def _library_copies(connection: sqlite3.Connection, rng: random.Random, isbns: list[str]) -> list[int]:
    copies = []
    barcodes = rng.sample(range(30000000, 39999999), 400)
    for isbn in isbns:
        for _ in range(rng.choice([1, 1, 2, 3, 4, 6])):
            copy_id = len(copies) + 1
            connection.execute(
                "INSERT INTO copy VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (copy_id, isbn, rng.randint(1, 5), barcodes[copy_id], rng.randint(1, 40),
                 (date(2010, 1, 1) + timedelta(days=rng.randint(0, 5400))).isoformat(),
                 rng.choices([1, 2, 3, 4, 5], weights=[5, 10, 30, 35, 20])[0], int(rng.random() < 0.07)),
            )  # fmt: skip
            copies.append(copy_id)
    return copies


def _library_loans(connection: sqlite3.Connection, rng: random.Random, copies: list[int], members: list[int]):
    start = date(2025, 1, 2)
    for loan_id in range(1, 901):
        lent = start + timedelta(days=rng.randint(0, 320))
        due = lent + timedelta(days=21)
        renewals = rng.choices([0, 1, 2, 3], weights=[70, 18, 8, 4])[0]
        due += timedelta(days=21 * renewals)
        late = rng.randint(1, 40) if rng.random() < 0.15 else -rng.randint(0, 19)
        back = None if rng.random() < 0.12 else due + timedelta(days=late)
        connection.execute(
            "INSERT INTO loan VALUES (?, ?, ?, ?, ?, ?, ?)",
            (loan_id, rng.choice(copies), rng.choice(members), lent.isoformat(), due.isoformat(),
             back.isoformat() if back else None, renewals),
        )  # fmt: skip
        if back and back > due:
            late_days = (back - due).days
            paid = int(rng.random() < 0.7)
            connection.execute(
                "INSERT INTO fine (loan_id, reason_code, amount, paid, paid_date) VALUES (?, 'LATE', ?, ?, ?)",
                (loan_id, round(min(late_days * 0.25, 8.0), 2), paid,
                 (back + timedelta(days=rng.randint(0, 30))).isoformat() if paid else None),
            )  # fmt: skip
        elif rng.random() < 0.02:
            reason, amount = rng.choice([("DMG", 5.0), ("LOST", 12.5), ("DMG", 3.5)])
            connection.execute(
                "INSERT INTO fine (loan_id, reason_code, amount, paid, paid_date) VALUES (?, ?, ?, 0, NULL)",
                (loan_id, reason, amount),
            )


def build_library_database(path: str | Path, seed: int = 35) -> Path:
    """Write the public library database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, LIBRARY_SCHEMA, seed) as (connection, rng):
        for branch_id, row in enumerate(BRANCHES, start=1):
            connection.execute("INSERT INTO branch VALUES (?, ?, ?, ?, ?, ?, ?)", (branch_id, *row))
        for author_id, row in enumerate(AUTHORS, start=1):
            connection.execute("INSERT INTO author VALUES (?, ?, ?, ?)", (author_id, *row))
        isbns = []
        for title, publisher, year, dewey, language, pages, edition, authors in BOOKS:
            isbn = _library_isbn(rng)
            isbns.append(isbn)
            connection.execute("INSERT INTO book VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               (isbn, title, publisher, year, dewey, language, pages, edition))  # fmt: skip
            for order, author_id in enumerate(authors, start=1):
                connection.execute("INSERT INTO book_author VALUES (?, ?, ?)", (isbn, author_id, order))
        members = _library_members(connection, rng)
        copies = _library_copies(connection, rng, isbns)
        _library_loans(connection, rng, copies, members)
        queue: dict[str, int] = {}
        for _ in range(60):
            isbn = rng.choice(isbns[:12])
            queue[isbn] = queue.get(isbn, 0) + 1
            connection.execute(
                "INSERT OR IGNORE INTO reservation VALUES (?, ?, ?, ?, ?, ?)",
                (rng.choice(members), isbn, (date(2025, 9, 1) + timedelta(days=rng.randint(0, 90))).isoformat(),
                 queue[isbn], rng.randint(1, 5), rng.choices(["WAIT", "READY", "DONE", "CANC"], [50, 10, 30, 10])[0]),
            )  # fmt: skip
    return Path(path)


LOGISTICS_SCHEMA = """
CREATE TABLE warehouse (
    warehouse_id INTEGER PRIMARY KEY,
    warehouse_code TEXT NOT NULL UNIQUE,
    city TEXT NOT NULL,
    country_code TEXT NOT NULL,
    region_no INTEGER NOT NULL,
    dock_count INTEGER NOT NULL,
    floor_area_m2 INTEGER,
    opened_year INTEGER NOT NULL
);
CREATE TABLE carrier (
    carrier_id INTEGER PRIMARY KEY,
    carrier_name TEXT NOT NULL,
    scac_code TEXT NOT NULL UNIQUE,
    service_level TEXT NOT NULL,
    tracking_url TEXT
);
CREATE TABLE customer (
    customer_id INTEGER PRIMARY KEY,
    company_name TEXT NOT NULL,
    city TEXT NOT NULL,
    country_code TEXT NOT NULL,
    vat_no TEXT,
    credit_tier INTEGER NOT NULL,
    key_account INTEGER NOT NULL
);
CREATE TABLE product (
    sku TEXT PRIMARY KEY,
    product_name TEXT NOT NULL,
    category TEXT NOT NULL,
    hs_code INTEGER NOT NULL,
    unit_weight_kg REAL NOT NULL,
    list_price REAL NOT NULL,
    hazmat INTEGER NOT NULL
);
CREATE TABLE stock (
    warehouse_id INTEGER NOT NULL REFERENCES warehouse (warehouse_id),
    sku TEXT NOT NULL REFERENCES product (sku),
    quantity_on_hand INTEGER NOT NULL,
    bin_no INTEGER NOT NULL,
    PRIMARY KEY (warehouse_id, sku)
);
CREATE TABLE sales_order (
    order_id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customer (customer_id),
    warehouse_id INTEGER NOT NULL REFERENCES warehouse (warehouse_id),
    order_date TEXT NOT NULL,
    priority_no INTEGER NOT NULL,
    status_code TEXT NOT NULL
);
CREATE TABLE order_line (
    order_id INTEGER NOT NULL REFERENCES sales_order (order_id),
    line_no INTEGER NOT NULL,
    sku TEXT NOT NULL REFERENCES product (sku),
    quantity INTEGER NOT NULL,
    unit_price REAL NOT NULL,
    discount_pct INTEGER NOT NULL,
    PRIMARY KEY (order_id, line_no)
);
CREATE TABLE shipment (
    shipment_id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES sales_order (order_id),
    carrier_id INTEGER NOT NULL REFERENCES carrier (carrier_id),
    tracking_no TEXT NOT NULL UNIQUE,
    shipped_date TEXT NOT NULL,
    delivered_date TEXT,
    weight_kg REAL NOT NULL,
    cost REAL NOT NULL
);
CREATE TABLE return_item (
    return_id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL,
    line_no INTEGER NOT NULL,
    return_date TEXT NOT NULL,
    reason_code TEXT NOT NULL,
    quantity INTEGER NOT NULL,
    refunded INTEGER NOT NULL,
    FOREIGN KEY (order_id, line_no) REFERENCES order_line (order_id, line_no)
);
"""

WAREHOUSES = [
    ("RTM1", "Rotterdam", "NL", 1, 24, 48000, 2004), ("RTM2", "Rotterdam", "NL", 1, 10, None, 2019),
    ("DUS1", "Düsseldorf", "DE", 2, 16, 31000, 2009), ("LYS1", "Lyon", "FR", 3, 8, 12500, 2015),
    ("MAD1", "Madrid", "ES", 3, 6, 9800, 2021), ("GDN1", "Gdańsk", "PL", 4, 12, 22000, 2012),
]  # fmt: skip
CARRIERS = [
    ("NorthSea Freight", "NSFR", "standard", "https://track.nsfr.test/"),
    ("NorthSea Freight", "NSFX", "express", "https://track.nsfr.test/"),
    ("Alpine Road", "ALPR", "standard", None),
    ("EuroParcel", "EUPC", "parcel", "https://europarcel.test/t/"),
    ("Vistula Haulage", "VSTH", "standard", None),
]
COMPANIES = ["Acme Tools", "Brightline", "Castell Foods", "Delta Retail", "Elmhurst", "Fjord Outdoor", "Granite & Co",
             "Helix Labs", "Iberia Hogar", "Juniper Garden", "Kessler Bau", "Lumen Lighting"]  # fmt: skip
CITIES = [("Amsterdam", "NL"), ("Utrecht", "NL"), ("Köln", "DE"), ("Berlin", "DE"), ("Paris", "FR"), ("Lyon", "FR"),
          ("Madrid", "ES"), ("Warszawa", "PL"), ("Antwerpen", "BE")]  # fmt: skip
PRODUCTS = [
    ("Cordless drill 18V", "tools", 846721, 1.8, 89.0, 0), ("Drill bit set", "tools", 820750, 0.6, 19.5, 0),
    ("Angle grinder", "tools", 846729, 2.4, 64.0, 0), ("Lithium battery pack", "tools", 850760, 0.7, 45.0, 1),
    ("Paint thinner 5L", "chemicals", 381400, 5.2, 22.0, 1), ("Wood stain 1L", "chemicals", 320890, 1.1, 14.9, 1),
    ("LED panel 60x60", "lighting", 940542, 3.0, 38.0, 0), ("LED bulb E27", "lighting", 853950, 0.1, 3.2, 0),
    ("Garden hose 25m", "garden", 391732, 2.9, 27.5, 0), ("Lawn seed 5kg", "garden", 120930, 5.0, 31.0, 0),
    ("Tent 4-person", "outdoor", 630622, 6.5, 149.0, 0), ("Camping stove", "outdoor", 732111, 1.2, 42.0, 1),
    ("Sleeping bag", "outdoor", 940430, 1.6, 59.0, 0), ("Olive oil 5L", "food", 150910, 4.7, 36.0, 0),
    ("Espresso beans 1kg", "food", 90121, 1.0, 18.0, 0),
]  # fmt: skip


def _logistics_parties(connection: sqlite3.Connection, rng: random.Random) -> list[str]:
    for warehouse_id, row in enumerate(WAREHOUSES, start=1):
        connection.execute("INSERT INTO warehouse VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (warehouse_id, *row))
    for carrier_id, row in enumerate(CARRIERS, start=1):
        connection.execute("INSERT INTO carrier VALUES (?, ?, ?, ?, ?)", (carrier_id, *row))
    for customer_id in range(1, 41):
        city, country = rng.choice(CITIES)
        vat = f"{country}{rng.randint(100000000, 999999999)}" if rng.random() < 0.8 else None
        connection.execute(
            "INSERT INTO customer VALUES (?, ?, ?, ?, ?, ?, ?)",
            (customer_id, rng.choice(COMPANIES), city, country, vat, rng.choices([1, 2, 3], [20, 50, 30])[0],
             int(rng.random() < 0.15)),
        )  # fmt: skip
    skus = []
    for number, (name, category, hs_code, weight, price, hazmat) in enumerate(PRODUCTS, start=1):
        sku = f"{category[:3].upper()}-{1000 + number * 7}"
        skus.append(sku)
        connection.execute("INSERT INTO product VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (sku, name, category, hs_code, weight, price, hazmat))  # fmt: skip
    for warehouse_id in range(1, len(WAREHOUSES) + 1):
        for sku in rng.sample(skus, rng.randint(6, len(skus))):
            connection.execute("INSERT INTO stock VALUES (?, ?, ?, ?)",
                               (warehouse_id, sku, rng.choice([0, rng.randint(1, 40), rng.randint(40, 900)]),
                                rng.randint(100, 480)))  # fmt: skip
    return skus


def _logistics_order(connection: sqlite3.Connection, rng: random.Random, order_id: int, skus: list[str], ordered):
    """An order's lines, its shipments (none while open) and returns of some lines."""
    status = rng.choices(["NEW", "PCK", "SHP", "DLV", "CNX"], weights=[6, 5, 14, 70, 5])[0]
    connection.execute(
        "INSERT INTO sales_order VALUES (?, ?, ?, ?, ?, ?)",
        (order_id, rng.randint(1, 40), rng.choices(range(1, 7), [35, 10, 25, 12, 8, 10])[0], ordered.isoformat(),
         rng.choices([1, 2, 3], [10, 30, 60])[0], status),
    )  # fmt: skip
    weight = 0.0
    lines = []
    for line_no, sku in enumerate(rng.sample(skus, rng.choice([1, 1, 2, 2, 3, 4, 6])), start=1):
        product = PRODUCTS[skus.index(sku)]
        quantity = rng.choice([1, 2, 4, 10, 12, 24, 50])
        weight += quantity * product[3]
        lines.append((line_no, quantity))
        connection.execute(
            "INSERT INTO order_line VALUES (?, ?, ?, ?, ?, ?)",
            (order_id, line_no, sku, quantity, product[4], rng.choice([0, 0, 0, 5, 10, 15])),
        )
    if status not in {"SHP", "DLV"}:
        return
    for part in range(rng.choices([1, 2], [85, 15])[0]):
        shipped = ordered + timedelta(days=rng.randint(0, 4) + part * 3)
        delivered = shipped + timedelta(days=rng.randint(1, 9)) if status == "DLV" else None
        connection.execute(
            "INSERT INTO shipment (order_id, carrier_id, tracking_no, shipped_date, delivered_date, weight_kg, cost)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (order_id, rng.randint(1, len(CARRIERS)), f"TRK{order_id:05d}{part}{rng.randint(100, 999)}",
             shipped.isoformat(), delivered.isoformat() if delivered else None, round(weight, 1),
             round(12 + weight * rng.uniform(0.3, 0.9), 2)),
        )  # fmt: skip
    for line_no, quantity in lines:
        if status == "DLV" and rng.random() < 0.06:
            connection.execute(
                "INSERT INTO return_item (order_id, line_no, return_date, reason_code, quantity, refunded)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (order_id, line_no, (ordered + timedelta(days=rng.randint(10, 40))).isoformat(),
                 rng.choice(["DMG", "WRG", "NLN", "DMG"]), rng.randint(1, quantity), int(rng.random() < 0.75)),
            )  # fmt: skip


def build_logistics_database(path: str | Path, seed: int = 35) -> Path:
    """Write the logistics database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, LOGISTICS_SCHEMA, seed) as (connection, rng):
        skus = _logistics_parties(connection, rng)
        start = date(2025, 3, 1)
        for order_id in range(1, 701):
            _logistics_order(connection, rng, order_id, skus, start + timedelta(days=rng.randint(0, 270)))
    return Path(path)


MUSEUM_SCHEMA = """
CREATE TABLE gallery (
    gallery_code TEXT PRIMARY KEY,
    gallery_name TEXT NOT NULL UNIQUE,
    wing TEXT NOT NULL,
    floor_no INTEGER NOT NULL,
    area_m2 INTEGER,
    climate_controlled INTEGER NOT NULL
);
CREATE TABLE staff (
    staff_id INTEGER PRIMARY KEY,
    staff_name TEXT NOT NULL,
    dept_code TEXT NOT NULL,
    grade_level INTEGER NOT NULL,
    hired_date TEXT NOT NULL,
    extension_no INTEGER
);
CREATE TABLE artist (
    artist_id INTEGER PRIMARY KEY,
    artist_name TEXT NOT NULL,
    birth_year INTEGER,
    death_year INTEGER,
    nationality TEXT,
    ulan_id INTEGER UNIQUE
);
CREATE TABLE object (
    accession_no TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    object_type TEXT NOT NULL,
    medium TEXT,
    year_made INTEGER,
    height_cm REAL,
    width_cm REAL,
    acquired_date TEXT NOT NULL,
    acquisition_method TEXT NOT NULL,
    gallery_code TEXT REFERENCES gallery (gallery_code),
    on_display INTEGER NOT NULL,
    insured_value INTEGER NOT NULL
);
CREATE TABLE object_artist (
    accession_no TEXT NOT NULL REFERENCES object (accession_no),
    artist_id INTEGER NOT NULL REFERENCES artist (artist_id),
    attribution TEXT NOT NULL,
    credit_order INTEGER NOT NULL,
    PRIMARY KEY (accession_no, artist_id)
);
CREATE TABLE exhibition (
    exhibition_id INTEGER PRIMARY KEY,
    exhibition_title TEXT NOT NULL,
    gallery_code TEXT NOT NULL REFERENCES gallery (gallery_code),
    curator_id INTEGER NOT NULL REFERENCES staff (staff_id),
    opening_date TEXT NOT NULL,
    closing_date TEXT NOT NULL,
    ticketed INTEGER NOT NULL,
    budget INTEGER
);
CREATE TABLE exhibit_item (
    exhibition_id INTEGER NOT NULL REFERENCES exhibition (exhibition_id),
    accession_no TEXT NOT NULL REFERENCES object (accession_no),
    case_no INTEGER,
    display_order INTEGER NOT NULL,
    PRIMARY KEY (exhibition_id, accession_no)
);
CREATE TABLE outgoing_loan (
    loan_ref TEXT PRIMARY KEY,
    accession_no TEXT NOT NULL REFERENCES object (accession_no),
    borrower TEXT NOT NULL,
    borrower_country TEXT NOT NULL,
    start_date TEXT NOT NULL,
    return_date TEXT,
    loan_fee INTEGER NOT NULL,
    courier_required INTEGER NOT NULL
);
CREATE TABLE condition_check (
    accession_no TEXT NOT NULL REFERENCES object (accession_no),
    check_date TEXT NOT NULL,
    staff_id INTEGER NOT NULL REFERENCES staff (staff_id),
    condition_grade INTEGER NOT NULL,
    needs_treatment INTEGER NOT NULL,
    PRIMARY KEY (accession_no, check_date)
);
CREATE TABLE ticket (
    ticket_no INTEGER PRIMARY KEY,
    visit_date TEXT NOT NULL,
    ticket_type TEXT NOT NULL,
    exhibition_id INTEGER REFERENCES exhibition (exhibition_id),
    party_size INTEGER NOT NULL,
    price_paid REAL NOT NULL,
    sales_channel TEXT NOT NULL
);
"""

GALLERIES = [
    ("G01", "Medieval Hall", "East", 0, 420, 1),
    ("G02", "Renaissance Rooms", "East", 1, 380, 1),
    ("G03", "Dutch Cabinet", "East", 1, 140, 1),
    ("G04", "Modern Gallery", "West", 2, 610, 1),
    ("G05", "Photography Room", "West", 2, 120, 1),
    ("G06", "Sculpture Court", "Central", 0, 900, 0),
    ("G07", "Textile Study", "West", 3, None, 1),
    ("G08", "Temporary Exhibitions", "Central", 1, 750, 1),
]
STAFF = [
    ("Helen Marsh", "CUR", 4),
    ("Tomás Ruiz", "CUR", 3),
    ("Anja Keller", "CUR", 2),
    ("Helen Marsh", "CON", 3),
    ("Oluwaseun Adeyemi", "CON", 2),
    ("Greta Lind", "CON", 1),
    ("Marc Dubois", "REG", 3),
    ("Priya Nair", "REG", 1),
    ("Sam O'Neill", "EDU", 2),
    ("Yuki Tanaka", "CUR", 1),
    ("Ben Carter", "DIR", 5),
]
ARTISTS = [
    ("Rembrandt van Rijn", 1606, 1669, "NL", 500011051),
    ("Johannes Vermeer", 1632, 1675, "NL", 500032927),
    ("Jan Steen", 1626, 1679, "NL", 500013468),
    ("Titian", 1488, 1576, "IT", 500031075),
    ("Sandro Botticelli", 1445, 1510, "IT", 500016906),
    ("Workshop of Botticelli", None, None, "IT", None),
    ("Claude Monet", 1840, 1926, "FR", 500019484),
    ("Berthe Morisot", 1841, 1895, "FR", 500008883),
    ("Barbara Hepworth", 1903, 1975, "GB", 500013071),
    ("Henry Moore", 1898, 1986, "GB", 500008398),
    ("Julia Margaret Cameron", 1815, 1879, "GB", 500001786),
    ("Dorothea Lange", 1895, 1965, "US", 500020012),
    ("Unknown", None, None, None, None),
    ("Anni Albers", 1899, 1994, "DE", 500011424),
    ("William Morris", 1834, 1896, "GB", 500008207),
    ("Bridget Riley", 1931, None, "GB", 500009597),
    ("Yayoi Kusama", 1929, None, "JP", 500060387),
    ("Hans Holbein", 1497, 1543, "DE", 500012006),
]
# object type, media, gallery candidates, year range, artists
MUSEUM_KINDS = {
    "PNT": (["oil on canvas", "oil on panel", "tempera on panel"], ["G02", "G03", "G04", "G08"]),
    "SCL": (["bronze", "marble", "carved elm"], ["G06", "G04", "G08"]),
    "PHO": (["albumen print", "gelatin silver print"], ["G05", "G08"]),
    "TXT": (["wool tapestry", "printed cotton", "woven linen"], ["G07", "G01"]),
    "DRW": (["red chalk", "pen and ink", "graphite"], ["G02", "G03"]),
    "CER": (["tin-glazed earthenware", "porcelain"], ["G01", "G03"]),
}
MUSEUM_WORKS = [
    (1, "PNT", "Self-Portrait", 1659),
    (1, "PNT", "Portrait of a Young Woman", 1632),
    (1, "DRW", "Study of a Head", 1635),
    (1, "DRW", "Landscape with a Cottage", 1645),
    (2, "PNT", "Woman Reading a Letter", 1663),
    (3, "PNT", "The Merry Family", 1668),
    (3, "PNT", "The Village School", 1665),
    (4, "PNT", "Portrait of a Man", 1512),
    (4, "PNT", "Venus and Adonis", 1554),
    (5, "PNT", "Madonna and Child", 1480),
    (6, "PNT", "Madonna and Child", 1490),
    (5, "DRW", "Study of Drapery", 1475),
    (7, "PNT", "Water Lilies", 1916),
    (7, "PNT", "Poplars on the Epte", 1891),
    (7, "PNT", "Untitled", 1880),
    (8, "PNT", "The Cradle", 1872),
    (8, "PNT", "Summer's Day", 1879),
    (9, "SCL", "Single Form", 1961),
    (9, "SCL", "Pelagos", 1946),
    (10, "SCL", "Reclining Figure", 1951),
    (10, "SCL", "Reclining Figure", 1938),
    (10, "DRW", "Shelter Drawing", 1941),
    (11, "PHO", "The Echo", 1868),
    (11, "PHO", "Untitled", 1866),
    (12, "PHO", "Migrant Mother", 1936),
    (12, "PHO", "White Angel Breadline", 1933),
    (13, "CER", "Dish with a Peacock", 1650),
    (13, "CER", "Tile Panel", 1700),
    (13, "TXT", "Fragment of a Tapestry", 1480),
    (13, "SCL", "Head of a Saint", 1350),
    (13, "CER", "Untitled", 1720),
    (14, "TXT", "Wall Hanging", 1926),
    (14, "TXT", "Untitled", 1948),
    (15, "TXT", "Strawberry Thief", 1883),
    (15, "TXT", "Woodpecker Tapestry", 1885),
    (16, "PNT", "Cataract 3", 1967),
    (16, "PNT", "Untitled", 1971),
    (17, "PNT", "Infinity Nets", 1959),
    (17, "SCL", "Pumpkin", 1994),
    (18, "PNT", "Portrait of a Merchant", 1532),
    (18, "DRW", "Portrait Study", 1536),
    (13, "TXT", "Sampler", 1810),
    (13, "CER", "Jug", 1600),
    (12, "PHO", "Untitled", 1939),
]
BORROWERS = [
    ("Rijksmuseum", "NL"),
    ("Musée d'Orsay", "FR"),
    ("Tate Britain", "GB"),
    ("Museo del Prado", "ES"),
    ("National Gallery of Art", "US"),
    ("Städel Museum", "DE"),
    ("Tate Britain", "GB"),
]
EXHIBITIONS = [
    ("Golden Age Portraits", "G08", 1, "2024-02-10", "2024-06-02", 1, 180000),
    ("Women Photographers", "G05", 3, "2024-03-01", "2024-08-31", 0, 25000),
    ("Carved and Cast", "G06", 2, "2024-05-15", "2025-01-05", 0, None),
    ("Impressions of Light", "G08", 1, "2024-09-20", "2025-01-26", 1, 240000),
    ("Pattern and Thread", "G07", 10, "2025-02-01", "2025-06-29", 0, 18000),
    ("Drawing Room", "G02", 3, "2025-03-08", "2025-07-13", 0, 9000),
    ("Infinite Space", "G08", 2, "2025-03-14", "2025-08-10", 1, 310000),
    ("Masters of Renaissance", "G02", 1, "2025-09-05", "2026-01-11", 1, 150000),
]


def _museum_objects(connection: sqlite3.Connection, rng: random.Random) -> list[str]:
    accessions = []
    years = rng.sample(range(1890, 2024), len(MUSEUM_WORKS))
    for number, (artist_id, kind, title, made) in enumerate(MUSEUM_WORKS, start=1):
        media, galleries = MUSEUM_KINDS[kind]
        acquired = date(years[number - 1], rng.randint(1, 12), rng.randint(1, 28))
        accession = f"{acquired.year}.{rng.randint(1, 60)}.{rng.randint(1, 4)}"
        while accession in accessions:
            accession += "a"
        accessions.append(accession)
        displayed = rng.random() < 0.6
        height = round(rng.uniform(15, 220), 1) if kind not in {"CER"} else round(rng.uniform(8, 45), 1)
        connection.execute(
            "INSERT INTO object VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                accession,
                title,
                kind,
                rng.choice(media) if rng.random() < 0.92 else None,
                made if rng.random() < 0.9 else None,
                height,
                round(height * rng.uniform(0.4, 1.4), 1) if kind not in {"SCL"} or rng.random() < 0.5 else None,
                acquired.isoformat(),
                rng.choices(["PUR", "GFT", "BEQ", "TRF"], [40, 30, 20, 10])[0],
                rng.choice(galleries) if displayed else None,
                int(displayed),
                rng.choice([5000, 12000, 40000, 250000, 1200000, 8500000]),
            ),
        )
        connection.execute("INSERT INTO object_artist VALUES (?, ?, 'artist', 1)", (accession, artist_id))
        if artist_id == 5 and rng.random() < 0.7:
            connection.execute("INSERT INTO object_artist VALUES (?, 6, 'workshop', 2)", (accession,))
        elif artist_id in {9, 10} and rng.random() < 0.3:
            connection.execute("INSERT INTO object_artist VALUES (?, ?, 'after', 2)", (accession, 19 - artist_id))
    return accessions


def _museum_records(connection: sqlite3.Connection, rng: random.Random, accessions: list[str]) -> None:
    for exhibition_id, row in enumerate(EXHIBITIONS, start=1):
        connection.execute("INSERT INTO exhibition VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (exhibition_id, *row))
        for order, accession in enumerate(rng.sample(accessions, rng.randint(4, 11)), start=1):
            connection.execute(
                "INSERT INTO exhibit_item VALUES (?, ?, ?, ?)",
                (exhibition_id, accession, rng.randint(1, 12) if rng.random() < 0.7 else None, order),
            )
    for number, accession in enumerate(rng.sample(accessions, 14), start=1):
        borrower, country = rng.choice(BORROWERS)
        start = date(2021, 1, 1) + timedelta(days=rng.randint(0, 1700))
        back = start + timedelta(days=rng.randint(60, 240))
        connection.execute(
            "INSERT INTO outgoing_loan VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                f"OL-{start.year}-{number:03d}",
                accession,
                borrower,
                country,
                start.isoformat(),
                back.isoformat() if back < date(2025, 10, 1) else None,
                rng.choice([0, 0, 1500, 3000, 7500]),
                int(rng.random() < 0.5),
            ),
        )
    conservators = [4, 5, 6, 8]
    for accession in accessions:
        checked = date(2019, 1, 1) + timedelta(days=rng.randint(0, 300))
        for _ in range(rng.randint(1, 4)):
            grade = rng.choices([1, 2, 3, 4, 5], [3, 10, 30, 40, 17])[0]
            connection.execute(
                "INSERT INTO condition_check VALUES (?, ?, ?, ?, ?)",
                (
                    accession,
                    checked.isoformat(),
                    rng.choice(conservators),
                    grade,
                    int(grade <= 2 or rng.random() < 0.05),
                ),
            )
            checked += timedelta(days=rng.randint(200, 700))


def _museum_tickets(connection: sqlite3.Connection, rng: random.Random) -> None:
    prices = {"ADU": 16.0, "CON": 11.0, "CHD": 0.0, "MEM": 0.0, "GRP": 12.5}
    for ticket_no in range(100001, 101201):
        visited = date(2024, 2, 1) + timedelta(days=rng.randint(0, 690))
        kind = rng.choices(list(prices), [45, 20, 15, 12, 8])[0]
        running = [
            number
            for number, row in enumerate(EXHIBITIONS, start=1)
            if row[5] and row[3] <= visited.isoformat() <= row[4]
        ]
        exhibition = rng.choice(running) if running and rng.random() < 0.55 else None
        party = rng.randint(8, 25) if kind == "GRP" else rng.choices([1, 2, 3, 4], [50, 30, 12, 8])[0]
        price = prices[kind] * party + (6.0 * party if exhibition and kind != "MEM" else 0.0)
        connection.execute(
            "INSERT INTO ticket VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                ticket_no,
                visited.isoformat(),
                kind,
                exhibition,
                party,
                price,
                rng.choices(["WEB", "DESK", "APP"], [55, 35, 10])[0],
            ),
        )


def build_museum_database(path: str | Path, seed: int = 35) -> Path:
    """Write the museum collections database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, MUSEUM_SCHEMA, seed) as (connection, rng):
        for row in GALLERIES:
            connection.execute("INSERT INTO gallery VALUES (?, ?, ?, ?, ?, ?)", row)
        for staff_id, (name, dept, grade) in enumerate(STAFF, start=1):
            hired = date(1995, 1, 1) + timedelta(days=rng.randint(0, 10500))
            connection.execute(
                "INSERT INTO staff VALUES (?, ?, ?, ?, ?, ?)",
                (
                    staff_id,
                    name,
                    dept,
                    grade,
                    hired.isoformat(),
                    rng.randint(2100, 2399) if rng.random() < 0.8 else None,
                ),
            )
        for artist_id, row in enumerate(ARTISTS, start=1):
            connection.execute("INSERT INTO artist VALUES (?, ?, ?, ?, ?, ?)", (artist_id, *row))
        accessions = _museum_objects(connection, rng)
        _museum_records(connection, rng, accessions)
        _museum_tickets(connection, rng)
    return Path(path)


SCHOOL_SCHEMA = """
CREATE TABLE department (
    dept_code TEXT PRIMARY KEY,
    dept_name TEXT NOT NULL UNIQUE,
    building TEXT NOT NULL,
    head_teacher_id INTEGER REFERENCES teacher (teacher_id)
);
CREATE TABLE teacher (
    teacher_id INTEGER PRIMARY KEY,
    staff_code TEXT NOT NULL UNIQUE,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    dept_code TEXT NOT NULL REFERENCES department (dept_code),
    pay_scale INTEGER NOT NULL,
    hire_year INTEGER NOT NULL,
    full_time INTEGER NOT NULL
);
CREATE TABLE student (
    student_id INTEGER PRIMARY KEY,
    upn TEXT NOT NULL UNIQUE,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    birth_date TEXT NOT NULL,
    year_group INTEGER NOT NULL,
    form_code TEXT NOT NULL,
    sex TEXT NOT NULL,
    free_meals INTEGER NOT NULL,
    sen_status TEXT
);
CREATE TABLE guardian (
    guardian_id INTEGER PRIMARY KEY,
    guardian_name TEXT NOT NULL,
    phone TEXT,
    email TEXT,
    postcode TEXT NOT NULL
);
CREATE TABLE student_guardian (
    student_id INTEGER NOT NULL REFERENCES student (student_id),
    guardian_id INTEGER NOT NULL REFERENCES guardian (guardian_id),
    relationship TEXT NOT NULL,
    contact_priority INTEGER NOT NULL,
    PRIMARY KEY (student_id, guardian_id)
);
CREATE TABLE course (
    course_code TEXT PRIMARY KEY,
    course_title TEXT NOT NULL,
    dept_code TEXT NOT NULL REFERENCES department (dept_code),
    key_stage INTEGER NOT NULL,
    exam_board TEXT,
    weekly_periods INTEGER NOT NULL,
    optional INTEGER NOT NULL
);
CREATE TABLE class_group (
    class_id INTEGER PRIMARY KEY,
    class_code TEXT NOT NULL UNIQUE,
    course_code TEXT NOT NULL REFERENCES course (course_code),
    teacher_id INTEGER NOT NULL REFERENCES teacher (teacher_id),
    year_group INTEGER NOT NULL,
    set_no INTEGER NOT NULL,
    room_no INTEGER
);
CREATE TABLE enrolment (
    class_id INTEGER NOT NULL REFERENCES class_group (class_id),
    student_id INTEGER NOT NULL REFERENCES student (student_id),
    enrolled_date TEXT NOT NULL,
    withdrawn INTEGER NOT NULL,
    PRIMARY KEY (class_id, student_id)
);
CREATE TABLE assessment (
    assessment_id INTEGER PRIMARY KEY,
    class_id INTEGER NOT NULL REFERENCES class_group (class_id),
    assessment_title TEXT NOT NULL,
    term_no INTEGER NOT NULL,
    due_date TEXT NOT NULL,
    max_mark INTEGER NOT NULL,
    weight_pct INTEGER NOT NULL
);
CREATE TABLE result (
    assessment_id INTEGER NOT NULL REFERENCES assessment (assessment_id),
    student_id INTEGER NOT NULL REFERENCES student (student_id),
    mark INTEGER,
    grade TEXT,
    submitted_late INTEGER NOT NULL,
    PRIMARY KEY (assessment_id, student_id)
);
"""

SCHOOL_DEPARTMENTS = [
    ("MAT", "Mathematics", "North Block"),
    ("ENG", "English", "Main Building"),
    ("SCI", "Science", "Science Block"),
    ("HUM", "Humanities", "Main Building"),
    ("MFL", "Modern Languages", "North Block"),
    ("ART", "Creative Arts", "Annex"),
]
SCHOOL_FIRST = [
    "Aisha",
    "Ben",
    "Chloe",
    "Daniel",
    "Ella",
    "Finn",
    "Grace",
    "Hassan",
    "Isla",
    "Jack",
    "Kiran",
    "Leo",
    "Maya",
    "Noah",
    "Olivia",
    "Priya",
    "Ruby",
    "Sam",
    "Theo",
    "Zara",
]
SCHOOL_LAST = [
    "Ali",
    "Baker",
    "Chen",
    "Dawson",
    "Edwards",
    "Green",
    "Hussain",
    "Jones",
    "Kowalski",
    "Patel",
    "Roberts",
    "Smith",
    "Taylor",
    "Walker",
    "Williams",
]
# code, title, department, key stage, exam board, periods a week, optional, year groups
SCHOOL_COURSES = [
    ("MA3", "Mathematics", "MAT", 3, None, 4, 0, [7, 8, 9]),
    ("MA4", "GCSE Mathematics", "MAT", 4, "EDX", 4, 0, [10, 11]),
    ("FM4", "Further Mathematics", "MAT", 4, "AQA", 1, 1, [11]),
    ("EN3", "English", "ENG", 3, None, 4, 0, [7, 8, 9]),
    ("EL4", "GCSE English Language", "ENG", 4, "AQA", 3, 0, [10, 11]),
    ("ET4", "GCSE English Literature", "ENG", 4, "AQA", 2, 0, [10, 11]),
    ("SC3", "Science", "SCI", 3, None, 3, 0, [7, 8, 9]),
    ("CS4", "GCSE Combined Science", "SCI", 4, "OCR", 5, 0, [10, 11]),
    ("HI3", "History", "HUM", 3, None, 2, 0, [7, 8, 9]),
    ("HI4", "GCSE History", "HUM", 4, "EDX", 3, 1, [10, 11]),
    ("GE4", "GCSE Geography", "HUM", 4, "AQA", 3, 1, [10, 11]),
    ("FR3", "French", "MFL", 3, None, 2, 0, [7, 8, 9]),
    ("FR4", "GCSE French", "MFL", 4, "AQA", 3, 1, [10, 11]),
    ("ES4", "GCSE Spanish", "MFL", 4, "EDX", 3, 1, [10, 11]),
    ("AR3", "Art and Design", "ART", 3, None, 1, 0, [7, 8, 9]),
    ("AR4", "GCSE Art", "ART", 4, "OCR", 3, 1, [10, 11]),
    ("MU4", "GCSE Music", "ART", 4, "OCR", 2, 1, [10, 11]),
]
SCHOOL_ASSESSMENTS = [("Autumn test", 1), ("Coursework", 2), ("Spring test", 2), ("Mock exam", 2), ("Summer exam", 3)]


def _school_people(connection: sqlite3.Connection, rng: random.Random) -> dict[int, list[int]]:
    """Departments, teachers, students (by year group) and their guardians."""
    for dept_code, name, building in SCHOOL_DEPARTMENTS:
        connection.execute("INSERT INTO department VALUES (?, ?, ?, NULL)", (dept_code, name, building))
    for teacher_id in range(1, 31):
        dept = SCHOOL_DEPARTMENTS[(teacher_id - 1) % len(SCHOOL_DEPARTMENTS)][0]
        first, last = rng.choice(SCHOOL_FIRST), rng.choice(SCHOOL_LAST)
        connection.execute(
            "INSERT INTO teacher VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                teacher_id,
                f"{first[0]}{last[:2].upper()}{teacher_id % 10}",
                first,
                last,
                dept,
                rng.choices(range(1, 7), [10, 15, 20, 20, 20, 15])[0],
                rng.randint(1998, 2025),
                int(rng.random() < 0.8),
            ),
        )
    for number, (dept_code, _name, _building) in enumerate(SCHOOL_DEPARTMENTS, start=1):
        if number != 6:
            connection.execute("UPDATE department SET head_teacher_id = ? WHERE dept_code = ?", (number, dept_code))
    years: dict[int, list[int]] = {year: [] for year in range(7, 12)}
    guardian_id = 0
    for student_id in range(1, 301):
        year = 7 + (student_id - 1) % 5
        years[year].append(student_id)
        last = rng.choice(SCHOOL_LAST)
        born = date(2025 - year - 5, 9, 1) + timedelta(days=rng.randint(0, 364))
        connection.execute(
            "INSERT INTO student VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                student_id,
                f"K{rng.randint(100000000000, 999999999999)}",
                rng.choice(SCHOOL_FIRST),
                last,
                born.isoformat(),
                year,
                f"{year}{rng.choice('ABCD')}",
                rng.choice("FM"),
                int(rng.random() < 0.22),
                rng.choices([None, "K", "E"], [84, 13, 3])[0],
            ),
        )
        postcode = f"BS{rng.randint(1, 16)} {rng.randint(1, 9)}{rng.choice('ABDEFGHJ')}{rng.choice('LNPQRSTU')}"
        for priority, relation in enumerate(
            rng.choice(
                [["mother"], ["mother", "father"], ["father"], ["mother", "father"], ["grandmother"], ["carer"]]
            ),
            start=1,
        ):
            guardian_id += 1
            connection.execute(
                "INSERT INTO guardian VALUES (?, ?, ?, ?, ?)",
                (
                    guardian_id,
                    f"{rng.choice(['Mr', 'Mrs', 'Ms', 'Dr'])} {last}",
                    f"07{rng.randint(100000000, 999999999)}" if rng.random() < 0.95 else None,
                    f"{last.lower()}{guardian_id}@home.test" if rng.random() < 0.7 else None,
                    postcode,
                ),
            )
            connection.execute(
                "INSERT INTO student_guardian VALUES (?, ?, ?, ?)", (student_id, guardian_id, relation, priority)
            )
    return years


def _school_classes(connection: sqlite3.Connection, rng: random.Random, years: dict[int, list[int]]) -> None:
    """Classes of each course and year group (sets), enrolments, assessments and their results."""
    class_id = assessment_id = 0
    for code, title, dept, stage, board, periods, optional, year_groups in SCHOOL_COURSES:
        connection.execute(
            "INSERT INTO course VALUES (?, ?, ?, ?, ?, ?, ?)", (code, title, dept, stage, board, periods, optional)
        )
        teachers = [number for number in range(1, 31) if SCHOOL_DEPARTMENTS[(number - 1) % 6][0] == dept]
        for year in year_groups:
            students = [s for s in years[year] if not optional or rng.random() < 0.4]
            sets = 2 if len(students) > 30 else 1
            for set_no in range(1, sets + 1):
                class_id += 1
                connection.execute(
                    "INSERT INTO class_group VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        class_id,
                        f"{year}{code[:2]}{set_no}",
                        code,
                        rng.choice(teachers),
                        year,
                        set_no,
                        rng.randint(1, 40) + 100 * rng.randint(1, 3) if rng.random() < 0.9 else None,
                    ),
                )
                members = students[set_no - 1 :: sets]
                for student_id in members:
                    connection.execute(
                        "INSERT INTO enrolment VALUES (?, ?, ?, ?)",
                        (
                            class_id,
                            student_id,
                            (date(2025, 9, 3) + timedelta(days=rng.choice([0, 0, 0, 7, 30]))).isoformat(),
                            int(rng.random() < 0.04),
                        ),
                    )
                for name, term in sorted(
                    rng.sample(SCHOOL_ASSESSMENTS, rng.randint(1, 3)), key=SCHOOL_ASSESSMENTS.index
                ):
                    assessment_id += 1
                    max_mark = rng.choice([20, 40, 50, 80, 100])
                    connection.execute(
                        "INSERT INTO assessment VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (
                            assessment_id,
                            class_id,
                            name,
                            term,
                            (date(2025, 10, 1) + timedelta(days=term * 80 + rng.randint(0, 20))).isoformat(),
                            max_mark,
                            rng.choice([10, 20, 25, 40]),
                        ),
                    )
                    for student_id in members:
                        mark = (
                            None
                            if rng.random() < 0.05
                            else max(0, min(max_mark, int(rng.gauss(0.62, 0.18) * max_mark)))
                        )
                        share = None if mark is None else mark / max_mark
                        grade = (
                            None
                            if share is None
                            else "A"
                            if share >= 0.8
                            else "B"
                            if share >= 0.65
                            else "C"
                            if share >= 0.5
                            else "D"
                            if share >= 0.35
                            else "E"
                        )
                        connection.execute(
                            "INSERT INTO result VALUES (?, ?, ?, ?, ?)",
                            (assessment_id, student_id, mark, grade, int(rng.random() < 0.08)),
                        )


def build_school_database(path: str | Path, seed: int = 35) -> Path:
    """Write the secondary school database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, SCHOOL_SCHEMA, seed) as (connection, rng):
        years = _school_people(connection, rng)
        _school_classes(connection, rng, years)
    return Path(path)


AIRLINE_SCHEMA = """
CREATE TABLE airport (
    airport_cd TEXT PRIMARY KEY,
    airport_nm TEXT NOT NULL,
    city TEXT NOT NULL,
    ctry_cd TEXT NOT NULL,
    utc_offset INTEGER NOT NULL,
    hub INTEGER NOT NULL
);
CREATE TABLE aircraft (
    tail_no TEXT PRIMARY KEY,
    model_cd TEXT NOT NULL,
    seat_qty INTEGER NOT NULL,
    mfg_yr INTEGER NOT NULL,
    wifi INTEGER NOT NULL,
    leased INTEGER NOT NULL
);
CREATE TABLE crew_member (
    crew_no INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    rank_cd TEXT NOT NULL,
    base_cd TEXT NOT NULL REFERENCES airport (airport_cd),
    hire_dt TEXT NOT NULL,
    reserve_flg INTEGER NOT NULL
);
CREATE TABLE route (
    route_id INTEGER PRIMARY KEY,
    orig_cd TEXT NOT NULL REFERENCES airport (airport_cd),
    dest_cd TEXT NOT NULL REFERENCES airport (airport_cd),
    dist_km INTEGER NOT NULL,
    intl INTEGER NOT NULL
);
CREATE TABLE flight (
    flight_id INTEGER PRIMARY KEY,
    flight_no TEXT NOT NULL,
    route_id INTEGER NOT NULL REFERENCES route (route_id),
    tail_no TEXT NOT NULL REFERENCES aircraft (tail_no),
    dep_dt TEXT NOT NULL,
    dep_mon INTEGER NOT NULL,
    delay_min INTEGER,
    status_cd TEXT NOT NULL
);
CREATE TABLE crew_assignment (
    flight_id INTEGER NOT NULL REFERENCES flight (flight_id),
    crew_no INTEGER NOT NULL REFERENCES crew_member (crew_no),
    duty_cd TEXT NOT NULL,
    deadhead INTEGER NOT NULL,
    PRIMARY KEY (flight_id, crew_no)
);
CREATE TABLE passenger (
    pax_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    birth_dt TEXT,
    ctry_cd TEXT NOT NULL,
    ffp_no TEXT,
    vip INTEGER NOT NULL
);
CREATE TABLE booking (
    pnr_cd TEXT PRIMARY KEY,
    pax_id INTEGER NOT NULL REFERENCES passenger (pax_id),
    booking_dt TEXT NOT NULL,
    cabin_cd TEXT NOT NULL,
    fare_amt REAL NOT NULL,
    refundable INTEGER NOT NULL
);
CREATE TABLE booking_segment (
    pnr_cd TEXT NOT NULL REFERENCES booking (pnr_cd),
    seg_no INTEGER NOT NULL,
    flight_id INTEGER NOT NULL REFERENCES flight (flight_id),
    seat_no TEXT,
    bag_qty INTEGER NOT NULL,
    no_show INTEGER NOT NULL,
    PRIMARY KEY (pnr_cd, seg_no)
);
"""

AIRPORTS = [
    ("DUB", "Dublin Airport", "Dublin", "IE", 0, 1), ("LHR", "Heathrow", "London", "GB", 0, 0),
    ("MAN", "Manchester Airport", "Manchester", "GB", 0, 0), ("CDG", "Charles de Gaulle", "Paris", "FR", 1, 0),
    ("AMS", "Schiphol", "Amsterdam", "NL", 1, 0), ("FRA", "Frankfurt Airport", "Frankfurt", "DE", 1, 0),
    ("MAD", "Barajas", "Madrid", "ES", 1, 0), ("LIS", "Humberto Delgado", "Lisbon", "PT", 0, 0),
    ("FCO", "Fiumicino", "Rome", "IT", 1, 0), ("ORK", "Cork Airport", "Cork", "IE", 0, 1),
    ("JFK", "John F. Kennedy", "New York", "US", -5, 0), ("BOS", "Logan", "Boston", "US", -5, 0),
]  # fmt: skip
ROUTE_KM = {"ORK": 220, "LHR": 449, "MAN": 265, "CDG": 785, "AMS": 757, "FRA": 1090, "MAD": 1450, "LIS": 1640,
            "FCO": 1890, "JFK": 5103, "BOS": 4800}  # fmt: skip
AIRCRAFT_MODELS = [("A320", 180), ("A321", 212), ("B738", 189), ("AT76", 70), ("A332", 317)]
CREW_RANKS = ["CPT"] * 2 + ["FO"] * 2 + ["PUR"] * 2 + ["FA"] * 6
FLYER_FIRST = ["Aoife", "Ciaran", "Niamh", "Sean", "Emma", "Lucas", "Sofia", "Mateo", "Chloe", "Tom", "Anna", "Jonas",
               "Marta", "Paolo", "Grace", "Ryan", "Ines", "Luca", "Ella", "Owen"]  # fmt: skip
FLYER_LAST = ["Byrne", "Murphy", "Kelly", "Walsh", "Smith", "Dubois", "Garcia", "Rossi", "Silva", "Muller", "Jansen",
              "O'Brien", "Brown", "Santos", "Novak"]  # fmt: skip


def _airline_fleet(connection: sqlite3.Connection, rng: random.Random) -> list[str]:
    """Airports, aircraft, crew and routes; returns the tail numbers."""
    for row in AIRPORTS:
        connection.execute("INSERT INTO airport VALUES (?, ?, ?, ?, ?, ?)", row)
    tails = []
    for number in range(14):
        model, seats = rng.choices(AIRCRAFT_MODELS, [6, 3, 2, 2, 1])[0]
        tail = f"EI-{chr(65 + number)}{rng.choice('FGLMRS')}{rng.choice('ABDEKX')}"
        tails.append(tail)
        connection.execute(
            "INSERT INTO aircraft VALUES (?, ?, ?, ?, ?, ?)",
            (tail, model, seats, rng.randint(2004, 2023), int(rng.random() < 0.6), int(rng.random() < 0.4)),
        )
    for crew_no in range(1001, 1061):
        connection.execute(
            "INSERT INTO crew_member VALUES (?, ?, ?, ?, ?, ?, ?)",
            (crew_no, rng.choice(FLYER_FIRST), rng.choice(FLYER_LAST), rng.choice(CREW_RANKS),
             rng.choice(["DUB", "DUB", "DUB", "ORK"]),
             (date(2008, 1, 1) + timedelta(days=rng.randint(0, 6000))).isoformat(), int(rng.random() < 0.2)),
        )  # fmt: skip
    route_id = 0
    for hub in ["DUB", "ORK"]:
        for code, _name, _city, country, _offset, is_hub in AIRPORTS:
            if code == hub or (hub == "ORK" and (is_hub or rng.random() < 0.6)):
                continue
            distance = ROUTE_KM[code] + (hub == "ORK") * rng.randint(120, 260)
            for origin, destination in [(hub, code), (code, hub)]:
                route_id += 1
                connection.execute(
                    "INSERT INTO route VALUES (?, ?, ?, ?, ?)",
                    (route_id, origin, destination, distance, int(country != "IE")),
                )
    return tails


def _airline_flights(connection: sqlite3.Connection, rng: random.Random, tails: list[str]) -> list[int]:
    """Flights over a year with their crews; returns the ids of flights that flew."""
    routes = connection.execute("SELECT route_id, dist_km FROM route").fetchall()
    flown = []
    for flight_id in range(1, 421):
        route_id, distance = rng.choice(routes)
        when = datetime(2025, 1, 1, 6) + timedelta(days=rng.randint(0, 364), minutes=5 * rng.randint(0, 190))
        status = rng.choices(["ARR", "CNX", "DIV"], [92, 6, 2])[0]
        delay = None if status == "CNX" else max(0, int(rng.expovariate(1 / 14)) - 5)
        connection.execute(
            "INSERT INTO flight VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (flight_id, f"WZ{100 + route_id * 2 + (distance > 4000) * 300}", route_id, rng.choice(tails),
             when.isoformat(sep=" ", timespec="minutes"), when.month, delay, status),
        )  # fmt: skip
        if status != "CNX":
            flown.append(flight_id)
        crew = rng.sample(range(1001, 1061), rng.randint(4, 6))
        for position, crew_no in enumerate(crew):
            duty = ["CPT", "FO"][position] if position < 2 else rng.choice(["PUR", "FA", "FA"])
            connection.execute(
                "INSERT INTO crew_assignment VALUES (?, ?, ?, ?)",
                (flight_id, crew_no, duty, int(rng.random() < 0.05)),
            )
    return flown


def _airline_bookings(connection: sqlite3.Connection, rng: random.Random, flights: list[int]) -> None:
    """Passengers, their bookings and each booking's flight segments."""
    for pax_id in range(1, 261):
        birth = None if rng.random() < 0.1 else date(1950, 1, 1) + timedelta(days=rng.randint(0, 20000))
        connection.execute(
            "INSERT INTO passenger VALUES (?, ?, ?, ?, ?, ?, ?)",
            (pax_id, rng.choice(FLYER_FIRST), rng.choice(FLYER_LAST), birth.isoformat() if birth else None,
             rng.choice(["IE", "IE", "IE", "GB", "FR", "DE", "US", "ES"]),
             f"WZ{rng.randint(1000000, 9999999)}" if rng.random() < 0.45 else None, int(rng.random() < 0.04)),
        )  # fmt: skip
    departures = dict(connection.execute("SELECT flight_id, dep_dt FROM flight").fetchall())
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    for number in range(520):
        pnr = "".join(rng.choice(letters) for _ in range(6)) + str(number % 10)
        legs = rng.sample(flights, rng.choices([1, 2], [65, 35])[0])
        first = min(departures[leg] for leg in legs)
        cabin = rng.choices(["Y", "W", "J"], [80, 12, 8])[0]
        fare = round(len(legs) * {"Y": 1, "W": 2.2, "J": 4.5}[cabin] * rng.uniform(29, 260), 2)
        booked = date.fromisoformat(first[:10]) - timedelta(days=rng.randint(1, 120))
        connection.execute(
            "INSERT INTO booking VALUES (?, ?, ?, ?, ?, ?)",
            (pnr, rng.randint(1, 260), booked.isoformat(), cabin, fare, int(cabin != "Y" or rng.random() < 0.2)),
        )
        for seg_no, flight_id in enumerate(sorted(legs, key=departures.get), start=1):
            seat = None if rng.random() < 0.08 else f"{rng.randint(1, 32)}{rng.choice('ABCDEF')}"
            connection.execute(
                "INSERT INTO booking_segment VALUES (?, ?, ?, ?, ?, ?)",
                (pnr, seg_no, flight_id, seat, rng.choices([0, 1, 2], [50, 40, 10])[0], int(rng.random() < 0.05)),
            )


def build_airline_database(path: str | Path, seed: int = 35) -> Path:
    """Write the regional airline database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, AIRLINE_SCHEMA, seed) as (connection, rng):
        tails = _airline_fleet(connection, rng)
        flown = _airline_flights(connection, rng, tails)
        _airline_bookings(connection, rng, flown)
    return Path(path)


RETAIL_SCHEMA = """
CREATE TABLE store (
    store_no INTEGER PRIMARY KEY,
    store_nm TEXT NOT NULL,
    city TEXT NOT NULL,
    region_cd TEXT NOT NULL,
    open_dt TEXT NOT NULL,
    sq_ft INTEGER,
    flagship INTEGER NOT NULL
);
CREATE TABLE employee (
    emp_no INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    store_no INTEGER NOT NULL REFERENCES store (store_no),
    role_cd TEXT NOT NULL,
    hire_dt TEXT NOT NULL,
    hourly_rt REAL NOT NULL,
    part_time INTEGER NOT NULL,
    keyholder INTEGER NOT NULL
);
CREATE TABLE supplier (
    supplier_cd TEXT PRIMARY KEY,
    supplier_nm TEXT NOT NULL,
    ctry_cd TEXT NOT NULL,
    lead_days INTEGER NOT NULL,
    preferred INTEGER NOT NULL
);
CREATE TABLE item (
    item_no INTEGER PRIMARY KEY,
    item_desc TEXT NOT NULL,
    dept_cd TEXT NOT NULL,
    supplier_cd TEXT NOT NULL REFERENCES supplier (supplier_cd),
    ean_cd TEXT NOT NULL UNIQUE,
    unit_cost_amt REAL NOT NULL,
    retail_amt REAL NOT NULL,
    own_brand INTEGER NOT NULL,
    seasonal INTEGER NOT NULL
);
CREATE TABLE store_item (
    store_no INTEGER NOT NULL REFERENCES store (store_no),
    item_no INTEGER NOT NULL REFERENCES item (item_no),
    on_hand_qty INTEGER NOT NULL,
    reorder_qty INTEGER NOT NULL,
    aisle_no INTEGER,
    PRIMARY KEY (store_no, item_no)
);
CREATE TABLE loyalty_member (
    member_no INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    join_dt TEXT NOT NULL,
    tier_cd TEXT NOT NULL,
    email_optin INTEGER NOT NULL
);
CREATE TABLE sale (
    txn_no INTEGER PRIMARY KEY,
    store_no INTEGER NOT NULL REFERENCES store (store_no),
    emp_no INTEGER NOT NULL REFERENCES employee (emp_no),
    member_no INTEGER REFERENCES loyalty_member (member_no),
    txn_dt TEXT NOT NULL,
    pay_cd TEXT NOT NULL,
    total_amt REAL NOT NULL
);
CREATE TABLE sale_line (
    txn_no INTEGER NOT NULL REFERENCES sale (txn_no),
    line_no INTEGER NOT NULL,
    item_no INTEGER NOT NULL REFERENCES item (item_no),
    qty INTEGER NOT NULL,
    unit_amt REAL NOT NULL,
    disc_amt REAL NOT NULL,
    PRIMARY KEY (txn_no, line_no)
);
CREATE TABLE promo (
    promo_cd TEXT PRIMARY KEY,
    promo_nm TEXT NOT NULL,
    dept_cd TEXT NOT NULL,
    start_dt TEXT NOT NULL,
    end_dt TEXT NOT NULL,
    pct_off INTEGER NOT NULL,
    clearance INTEGER NOT NULL
);
CREATE TABLE store_target (
    store_no INTEGER NOT NULL REFERENCES store (store_no),
    yr INTEGER NOT NULL,
    mon INTEGER NOT NULL,
    target_amt REAL NOT NULL,
    PRIMARY KEY (store_no, yr, mon)
);
"""

STORES = [
    ("Leeds Briggate", "Leeds", "NTH", "2009-04-18", 24000, 1),
    ("York Coppergate", "York", "NTH", "2014-09-06", 9500, 0),
    ("Sheffield Meadowhall", "Sheffield", "NTH", "2011-03-12", 16000, 0),
    ("Bristol Cabot", "Bristol", "STH", "2016-10-01", 14500, 0),
    ("Bath Southgate", "Bath", "STH", "2019-05-25", None, 0),
    ("London Oxford St", "London", "LDN", "2005-11-19", 38000, 1),
    ("Croydon Whitgift", "London", "LDN", "2021-02-27", 8000, 0),
]  # fmt: skip
SUPPLIERS = [
    ("NRDX", "Nordex Textiles", "PT", 21, 1), ("KMAH", "Kamal Home", "TR", 35, 0),
    ("HWGD", "Hawthorn Goods", "GB", 7, 1), ("LSTR", "Lustre Ceramics", "ES", 28, 0),
    ("BRKL", "Brookline Foods", "GB", 4, 1), ("ZHTX", "Zhen Textiles", "CN", 60, 0),
    ("FJLD", "Fjordland Design", "DK", 18, 0),
]  # fmt: skip
ITEMS = [
    ("Cotton crew tee", "CLO", "NRDX", 4.1, 12.0, 1, 0), ("Linen shirt", "CLO", "NRDX", 9.5, 35.0, 1, 1),
    ("Wool scarf", "CLO", "ZHTX", 5.2, 22.0, 0, 1), ("Denim jacket", "CLO", "ZHTX", 14.0, 59.0, 0, 0),
    ("Rain mac", "CLO", "ZHTX", 11.0, 45.0, 1, 1), ("Bath towel", "HOM", "KMAH", 3.8, 14.0, 1, 0),
    ("Duvet cover double", "HOM", "KMAH", 9.0, 32.0, 1, 0), ("Scented candle", "HOM", "HWGD", 2.1, 9.5, 1, 1),
    ("Table lamp", "HOM", "FJLD", 17.0, 65.0, 0, 0), ("Cushion", "HOM", "KMAH", 3.0, 12.5, 1, 0),
    ("Stoneware mug", "KIT", "LSTR", 1.6, 6.0, 1, 0), ("Dinner plate set", "KIT", "LSTR", 12.0, 42.0, 0, 0),
    ("Chef knife", "KIT", "FJLD", 9.0, 38.0, 0, 0), ("Glass tumbler 4pk", "KIT", "HWGD", 3.2, 11.0, 1, 0),
    ("Shortbread tin", "FOO", "BRKL", 2.4, 7.5, 1, 1), ("Ground coffee", "FOO", "BRKL", 2.9, 6.5, 1, 0),
    ("Mince pies 6pk", "FOO", "BRKL", 1.2, 3.5, 1, 1), ("Dark chocolate bar", "FOO", "BRKL", 0.7, 2.2, 1, 0),
    ("Gift card holder", "GFT", "HWGD", 0.3, 1.5, 1, 0), ("Advent calendar", "GFT", "HWGD", 3.0, 12.0, 0, 1),
]  # fmt: skip
STAFF_ROLES = ["MGR"] + ["SUP"] * 2 + ["CSH"] * 5 + ["STK"] * 4
PROMOS = [
    ("SPR25", "Spring refresh", "HOM", "2025-03-01", "2025-03-31", 20, 0),
    ("SUM25", "Summer sale", "CLO", "2025-06-20", "2025-07-31", 30, 1),
    ("BTS25", "Back to school", "KIT", "2025-08-15", "2025-09-07", 15, 0),
    ("XMS25", "Christmas treats", "FOO", "2025-11-15", "2025-12-24", 10, 0),
    ("JAN25", "January clearance", "CLO", "2025-01-02", "2025-01-31", 50, 1),
    ("GFT25", "Gift week", "GFT", "2025-12-01", "2025-12-07", 25, 0),
]


def _retail_parties(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Stores, staff, suppliers, items, each store's stock, loyalty members, promotions and monthly targets."""
    for store_no, row in enumerate(STORES, start=101):
        connection.execute("INSERT INTO store VALUES (?, ?, ?, ?, ?, ?, ?)", (store_no, *row))
        for _ in range(rng.randint(5, 9)):
            role = rng.choice(STAFF_ROLES)
            connection.execute(
                "INSERT INTO employee (first_nm, last_nm, store_no, role_cd, hire_dt, hourly_rt, part_time, keyholder)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (rng.choice(FLYER_FIRST), rng.choice(FLYER_LAST), store_no, role,
                 (date(2012, 1, 1) + timedelta(days=rng.randint(0, 4800))).isoformat(),
                 round({"MGR": 19.5, "SUP": 14.2}.get(role, 11.44) + rng.choice([0, 0, 0.25, 0.6]), 2),
                 int(role in {"CSH", "STK"} and rng.random() < 0.55), int(role in {"MGR", "SUP"})),
            )  # fmt: skip
        for month in range(1, 13):
            target = round((row[4] or 10000) * rng.uniform(2.5, 3.5) * (1.6 if month in {11, 12} else 1), -2)
            connection.execute("INSERT INTO store_target VALUES (?, ?, ?, ?)", (store_no, 2025, month, target))
    for row in SUPPLIERS:
        connection.execute("INSERT INTO supplier VALUES (?, ?, ?, ?, ?)", row)
    for item_no, (desc, dept, supplier, cost, price, own, seasonal) in enumerate(ITEMS, start=40011):
        connection.execute(
            "INSERT INTO item VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (item_no, desc, dept, supplier, f"50{rng.randint(10**10, 10**11 - 1)}", cost, price, own, seasonal),
        )
        for store_no in range(101, 101 + len(STORES)):
            if rng.random() < 0.75:
                connection.execute(
                    "INSERT INTO store_item VALUES (?, ?, ?, ?, ?)",
                    (store_no, item_no, rng.choice([0, rng.randint(1, 12), rng.randint(12, 140)]),
                     rng.choice([6, 12, 24]), None if rng.random() < 0.1 else rng.randint(1, 14)),
                )  # fmt: skip
    for member_no in range(500001, 500181):
        connection.execute(
            "INSERT INTO loyalty_member VALUES (?, ?, ?, ?, ?, ?)",
            (member_no, rng.choice(FLYER_FIRST), rng.choice(FLYER_LAST),
             (date(2018, 1, 1) + timedelta(days=rng.randint(0, 2800))).isoformat(),
             rng.choices(["BRZ", "SLV", "GLD"], [60, 30, 10])[0], int(rng.random() < 0.45)),
        )  # fmt: skip
    for row in PROMOS:
        connection.execute("INSERT INTO promo VALUES (?, ?, ?, ?, ?, ?, ?)", row)


def _retail_sales(connection: sqlite3.Connection, rng: random.Random) -> None:
    """A year of till transactions, each with its lines; a line in a promotion's department and dates is discounted."""
    staff = connection.execute("SELECT store_no, emp_no FROM employee WHERE role_cd != 'STK'").fetchall()
    stocked = connection.execute("SELECT store_no, item_no FROM store_item").fetchall()
    prices = dict(connection.execute("SELECT item_no, retail_amt FROM item").fetchall())
    departments = dict(connection.execute("SELECT item_no, dept_cd FROM item").fetchall())
    for txn_no in range(1, 1101):
        store_no, emp_no = rng.choice(staff)
        when = datetime(2025, 1, 2, 9) + timedelta(days=rng.randint(0, 360), minutes=rng.randint(0, 600))
        day = when.date().isoformat()
        items = [item for store, item in stocked if store == store_no]
        total = 0.0
        connection.execute(
            "INSERT INTO sale VALUES (?, ?, ?, ?, ?, ?, 0)",
            (txn_no, store_no, emp_no, rng.randint(500001, 500180) if rng.random() < 0.35 else None,
             when.isoformat(sep=" ", timespec="minutes"), rng.choices(["CRD", "CSH", "MOB"], [60, 15, 25])[0]),
        )  # fmt: skip
        for line_no, item_no in enumerate(rng.sample(items, rng.choice([1, 1, 1, 2, 2, 3, 5])), start=1):
            quantity = rng.choices([1, 2, 3, 6], [70, 20, 7, 3])[0]
            share = max(
                [
                    pct
                    for _, _, dept, start, end, pct, _ in PROMOS
                    if dept == departments[item_no] and start <= day <= end
                ],
                default=0,
            )
            discount = round(prices[item_no] * quantity * share / 100, 2)
            total += prices[item_no] * quantity - discount
            connection.execute(
                "INSERT INTO sale_line VALUES (?, ?, ?, ?, ?, ?)",
                (txn_no, line_no, item_no, quantity, prices[item_no], discount),
            )
        connection.execute("UPDATE sale SET total_amt = ? WHERE txn_no = ?", (round(total, 2), txn_no))


def build_retail_database(path: str | Path, seed: int = 35) -> Path:
    """Write the homeware and clothing chain's database to `path` (replacing it) from `seed`; the same seed gives the
    same file."""
    with _fresh_database(path, RETAIL_SCHEMA, seed) as (connection, rng):
        _retail_parties(connection, rng)
        _retail_sales(connection, rng)
    return Path(path)


TRANSIT_SCHEMA = """
CREATE TABLE operator (
    operator_code TEXT PRIMARY KEY,
    operator_name TEXT NOT NULL UNIQUE,
    depot_town TEXT NOT NULL,
    contract_start TEXT NOT NULL,
    subsidised INTEGER NOT NULL
);
CREATE TABLE stop (
    stop_id INTEGER PRIMARY KEY,
    stop_code TEXT NOT NULL UNIQUE,
    stop_name TEXT NOT NULL,
    locality TEXT NOT NULL,
    fare_zone INTEGER NOT NULL,
    sheltered INTEGER NOT NULL,
    step_free INTEGER NOT NULL
);
CREATE TABLE route (
    route_id INTEGER PRIMARY KEY,
    route_no TEXT NOT NULL,
    route_name TEXT NOT NULL,
    operator_code TEXT NOT NULL REFERENCES operator (operator_code),
    mode TEXT NOT NULL,
    night_service INTEGER NOT NULL,
    introduced_year INTEGER
);
CREATE TABLE route_stop (
    route_id INTEGER NOT NULL REFERENCES route (route_id),
    direction INTEGER NOT NULL,
    stop_seq INTEGER NOT NULL,
    stop_id INTEGER NOT NULL REFERENCES stop (stop_id),
    minutes_from_start INTEGER NOT NULL,
    timing_point INTEGER NOT NULL,
    PRIMARY KEY (route_id, direction, stop_seq)
);
CREATE TABLE vehicle (
    fleet_no INTEGER PRIMARY KEY,
    reg_plate TEXT NOT NULL UNIQUE,
    operator_code TEXT NOT NULL REFERENCES operator (operator_code),
    make TEXT NOT NULL,
    model TEXT NOT NULL,
    seats INTEGER NOT NULL,
    standing INTEGER NOT NULL,
    built_year INTEGER NOT NULL,
    electric INTEGER NOT NULL
);
CREATE TABLE driver (
    driver_id INTEGER PRIMARY KEY,
    badge_no TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    first_name TEXT NOT NULL,
    surname TEXT NOT NULL,
    operator_code TEXT NOT NULL REFERENCES operator (operator_code),
    hired_date TEXT NOT NULL,
    pay_band INTEGER NOT NULL,
    trainer INTEGER NOT NULL
);
CREATE TABLE trip (
    trip_id INTEGER PRIMARY KEY,
    route_id INTEGER NOT NULL REFERENCES route (route_id),
    direction INTEGER NOT NULL,
    service_date TEXT NOT NULL,
    sched_departure TEXT NOT NULL,
    fleet_no INTEGER REFERENCES vehicle (fleet_no),
    driver_id INTEGER REFERENCES driver (driver_id),
    delay_min INTEGER,
    cancelled INTEGER NOT NULL
);
CREATE TABLE fare_product (
    product_code TEXT PRIMARY KEY,
    product_name TEXT NOT NULL,
    price REAL NOT NULL,
    valid_days INTEGER NOT NULL,
    zones INTEGER NOT NULL,
    concession INTEGER NOT NULL
);
CREATE TABLE smartcard (
    card_no TEXT PRIMARY KEY,
    product_code TEXT NOT NULL REFERENCES fare_product (product_code),
    issued_date TEXT NOT NULL,
    holder_birth_year INTEGER,
    blocked INTEGER NOT NULL
);
CREATE TABLE tap (
    card_no TEXT NOT NULL REFERENCES smartcard (card_no),
    trip_id INTEGER NOT NULL REFERENCES trip (trip_id),
    boarding_stop_id INTEGER NOT NULL REFERENCES stop (stop_id),
    tap_time TEXT NOT NULL,
    fare_charged REAL NOT NULL,
    PRIMARY KEY (card_no, trip_id)
);
"""

TRANSIT_OPERATORS = [
    ("CTB", "City Transit Buses", "Eastgate", "2019-04-01", 0),
    ("RVL", "Riverline Coaches", "Millbrook", "2021-09-01", 1),
    ("MTR", "Metro Tramways", "Northfield", "2016-01-01", 0),
]
TRANSIT_PLACES = [
    ("Central Station", "City Centre", 1),
    ("Market Square", "City Centre", 1),
    ("Cathedral", "City Centre", 1),
    ("Royal Infirmary", "Hillside", 2),
    ("University", "Hillside", 2),
    ("Parkway", "Eastgate", 2),
    ("Eastgate Depot", "Eastgate", 3),
    ("Riverside", "Millbrook", 3),
    ("Millbrook Green", "Millbrook", 3),
    ("Northfield Park", "Northfield", 2),
    ("Airport", "Northfield", 4),
    ("Harbour", "Docklands", 2),
    ("Retail Park", "Docklands", 3),
    ("Old Town", "City Centre", 1),
    ("Westway", "Westbury", 3),
    ("Westbury Church", "Westbury", 3),
]
# number, name, operator, mode, night service, year introduced
TRANSIT_ROUTES = [
    ("1", "Central - Airport", "CTB", "BUS", 1, 2004),
    ("7", "Market Square - Millbrook", "RVL", "BUS", 0, 1998),
    ("7A", "Market Square - Retail Park", "RVL", "BUS", 0, 2017),
    ("12", "Harbour - University", "CTB", "BUS", 0, None),
    ("22", "Westbury - Royal Infirmary", "CTB", "BUS", 1, 2011),
    ("N22", "Westbury - Central (night)", "CTB", "BUS", 1, 2020),
    ("X40", "Millbrook Express", "RVL", "COACH", 0, 2022),
    ("T1", "Northfield - Harbour", "MTR", "TRAM", 0, 2016),
    ("T2", "Eastgate - Old Town", "MTR", "TRAM", 1, 2018),
]
TRANSIT_VEHICLES = [
    ("Alexander Dennis", "Enviro400", 78, 20),
    ("Wright", "StreetDeck", 76, 22),
    ("Optare", "Solo", 33, 15),
    ("Yutong", "E12", 42, 30),
    ("Stadler", "Variobahn", 64, 140),
]
TRANSIT_FIRST = ["Alan", "Bea", "Carl", "Dana", "Errol", "Fatima", "Gary", "Helen", "Imran", "Joy", "Kevin", "Lorna"]
TRANSIT_SURNAMES = ["Adams", "Begum", "Clarke", "Doyle", "Evans", "Fraser", "Grant", "Hall", "Khan", "Lewis", "Reid"]
TRANSIT_PRODUCTS = [
    ("SGL", "Single", 2.0, 1, 1, 0),
    ("DAY", "Day Rider", 5.5, 1, 2, 0),
    ("DAY4", "Day Rider All Zones", 7.8, 1, 4, 0),
    ("WK", "Weekly", 19.0, 7, 2, 0),
    ("MTH", "Monthly", 68.0, 30, 4, 0),
    ("YP", "Young Person Weekly", 11.0, 7, 2, 1),
    ("SNR", "Older Person Pass", 0.0, 365, 4, 1),
]


def _transit_network(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Operators, stops, routes with their stops in order, vehicles and drivers."""
    connection.executemany("INSERT INTO operator VALUES (?, ?, ?, ?, ?)", TRANSIT_OPERATORS)
    for stop_id, (name, locality, zone) in enumerate(TRANSIT_PLACES * 3, start=1):
        suffix = ["", " (Stop B)", " (Stop C)"][(stop_id - 1) // len(TRANSIT_PLACES)]
        connection.execute(
            "INSERT INTO stop VALUES (?, ?, ?, ?, ?, ?, ?)",
            (stop_id, f"STA{4000 + stop_id * 7}", name + suffix, locality, zone, int(rng.random() < 0.6),
             int(rng.random() < 0.75)),
        )  # fmt: skip
    stops = list(range(1, len(TRANSIT_PLACES) * 3 + 1))
    for route_id, row in enumerate(TRANSIT_ROUTES, start=1):
        connection.execute("INSERT INTO route VALUES (?, ?, ?, ?, ?, ?, ?)", (route_id, *row))
        calls = rng.sample(stops, rng.randint(6, 11))
        for direction in (1, 2):
            order = calls if direction == 1 else list(reversed(calls))
            minutes = 0
            for seq, stop_id in enumerate(order, start=1):
                connection.execute(
                    "INSERT INTO route_stop VALUES (?, ?, ?, ?, ?, ?)",
                    (route_id, direction, seq, stop_id, minutes, int(seq == 1 or seq == len(order) or seq % 4 == 0)),
                )
                minutes += rng.randint(2, 6)
    for fleet_no in range(101, 141):
        operator = rng.choice(["CTB", "CTB", "RVL", "MTR"])
        make, model, seats, standing = TRANSIT_VEHICLES[4] if operator == "MTR" else rng.choice(TRANSIT_VEHICLES[:4])
        connection.execute(
            "INSERT INTO vehicle VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (fleet_no, f"{rng.choice('BKLSY')}{rng.choice('JKMNX')}{rng.randint(10, 24)} {rng.choice('ABCDEF')}"
             f"{rng.choice('GHKLN')}{rng.choice('PRSTU')}{fleet_no % 10}", operator, make, model, seats, standing,
             rng.randint(2008, 2024), int(make in ("Yutong", "Stadler") or rng.random() < 0.1)),
        )  # fmt: skip
    for driver_id in range(1, 61):
        title = rng.choice(["Mr", "Mr", "Ms", "Mrs", "Mx"])
        connection.execute(
            "INSERT INTO driver VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (driver_id, f"D{31000 + driver_id * 173}", title, rng.choice(TRANSIT_FIRST),
             rng.choice(TRANSIT_SURNAMES), rng.choice(["CTB", "CTB", "RVL", "MTR"]),
             (date(2001, 1, 1) + timedelta(days=rng.randint(0, 8700))).isoformat(), rng.randint(1, 5),
             int(rng.random() < 0.12)),
        )  # fmt: skip


def _transit_trips(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Trips over a fortnight, smartcards and the cards' taps on the trips."""
    routes = connection.execute("SELECT route_id, operator_code FROM route").fetchall()
    fleets = {
        code: [n for (n,) in connection.execute("SELECT fleet_no FROM vehicle WHERE operator_code = ?", (code,))]
        for code, *_ in TRANSIT_OPERATORS
    }
    drivers = {
        code: [n for (n,) in connection.execute("SELECT driver_id FROM driver WHERE operator_code = ?", (code,))]
        for code, *_ in TRANSIT_OPERATORS
    }
    for trip_id in range(1, 601):
        route_id, operator = rng.choice(routes)
        cancelled = int(rng.random() < 0.04)
        connection.execute(
            "INSERT INTO trip VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (trip_id, route_id, rng.choice([1, 2]),
             (date(2026, 10, 5) + timedelta(days=rng.randint(0, 13))).isoformat(),
             f"{rng.randint(5, 23):02d}:{rng.choice(range(0, 60, 5)):02d}",
             None if cancelled else rng.choice(fleets[operator]), None if cancelled else rng.choice(drivers[operator]),
             None if cancelled else max(0, int(rng.gauss(3, 4))), cancelled),
        )  # fmt: skip
    connection.executemany("INSERT INTO fare_product VALUES (?, ?, ?, ?, ?, ?)", TRANSIT_PRODUCTS)
    for number in range(1, 321):
        product = rng.choices([row[0] for row in TRANSIT_PRODUCTS], [30, 15, 5, 20, 10, 10, 10])[0]
        connection.execute(
            "INSERT INTO smartcard VALUES (?, ?, ?, ?, ?)",
            (f"633597{number * 7919 % 1000000:06d}", product,
             (date(2022, 1, 1) + timedelta(days=rng.randint(0, 1700))).isoformat(),
             None if rng.random() < 0.3 else (rng.randint(1940, 1960) if product == "SNR" else rng.randint(1961, 2012)),
             int(rng.random() < 0.03)),
        )  # fmt: skip
    cards = connection.execute("SELECT card_no, product_code FROM smartcard").fetchall()
    prices = {row[0]: row[2] for row in TRANSIT_PRODUCTS}
    calls = connection.execute(
        "SELECT t.trip_id, rs.stop_id, t.sched_departure, t.service_date FROM trip AS t JOIN route_stop AS rs"
        " ON rs.route_id = t.route_id AND rs.direction = t.direction WHERE t.cancelled = 0"
    ).fetchall()
    seen = set()
    for _ in range(1500):
        card_no, product = rng.choice(cards)
        trip_id, stop_id, departure, day = rng.choice(calls)
        if (card_no, trip_id) in seen:
            continue
        seen.add((card_no, trip_id))
        connection.execute(
            "INSERT INTO tap VALUES (?, ?, ?, ?, ?)",
            (card_no, trip_id, stop_id, f"{day} {departure}:{rng.randint(0, 59):02d}",
             prices[product] if product == "SGL" else 0.0),
        )  # fmt: skip


def build_transit_database(path: str | Path, seed: int = 35) -> Path:
    """Write the city transit database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, TRANSIT_SCHEMA, seed) as (connection, rng):
        _transit_network(connection, rng)
        _transit_trips(connection, rng)
    return Path(path)


GRANTS_SCHEMA = """
CREATE TABLE funder (
    funder_code TEXT PRIMARY KEY,
    funder_name TEXT NOT NULL UNIQUE,
    country_code TEXT NOT NULL,
    public_body INTEGER NOT NULL
);
CREATE TABLE scheme (
    scheme_id INTEGER PRIMARY KEY,
    funder_code TEXT NOT NULL REFERENCES funder (funder_code),
    scheme_name TEXT NOT NULL,
    max_award REAL NOT NULL,
    max_months INTEGER NOT NULL,
    early_career_only INTEGER NOT NULL
);
CREATE TABLE institution (
    inst_id INTEGER PRIMARY KEY,
    inst_name TEXT NOT NULL UNIQUE,
    city TEXT NOT NULL,
    ukprn TEXT NOT NULL UNIQUE
);
CREATE TABLE department (
    dept_id INTEGER PRIMARY KEY,
    inst_id INTEGER NOT NULL REFERENCES institution (inst_id),
    dept_name TEXT NOT NULL,
    faculty TEXT NOT NULL
);
CREATE TABLE researcher (
    researcher_id INTEGER PRIMARY KEY,
    orcid TEXT UNIQUE,
    title TEXT NOT NULL,
    first_name TEXT NOT NULL,
    surname TEXT NOT NULL,
    dept_id INTEGER NOT NULL REFERENCES department (dept_id),
    career_stage INTEGER NOT NULL,
    phd_year INTEGER
);
CREATE TABLE application (
    app_ref TEXT PRIMARY KEY,
    scheme_id INTEGER NOT NULL REFERENCES scheme (scheme_id),
    project_title TEXT NOT NULL,
    submitted_date TEXT NOT NULL,
    round_no INTEGER NOT NULL,
    requested_amt REAL NOT NULL,
    duration_months INTEGER NOT NULL,
    status TEXT NOT NULL,
    panel_rank INTEGER
);
CREATE TABLE investigator (
    app_ref TEXT NOT NULL REFERENCES application (app_ref),
    researcher_id INTEGER NOT NULL REFERENCES researcher (researcher_id),
    role TEXT NOT NULL,
    fte_pct INTEGER NOT NULL,
    PRIMARY KEY (app_ref, researcher_id)
);
CREATE TABLE review (
    app_ref TEXT NOT NULL REFERENCES application (app_ref),
    reviewer_id INTEGER NOT NULL REFERENCES researcher (researcher_id),
    score INTEGER,
    returned_date TEXT,
    conflict_declared INTEGER NOT NULL,
    PRIMARY KEY (app_ref, reviewer_id)
);
CREATE TABLE award (
    grant_no TEXT PRIMARY KEY,
    app_ref TEXT NOT NULL UNIQUE REFERENCES application (app_ref),
    awarded_amt REAL NOT NULL,
    start_date TEXT NOT NULL,
    end_date TEXT NOT NULL,
    extended INTEGER NOT NULL
);
CREATE TABLE payment (
    grant_no TEXT NOT NULL REFERENCES award (grant_no),
    instalment_no INTEGER NOT NULL,
    due_date TEXT NOT NULL,
    amount REAL NOT NULL,
    paid INTEGER NOT NULL,
    PRIMARY KEY (grant_no, instalment_no)
);
"""

GRANT_FUNDERS = [
    ("EPSRC", "Engineering and Physical Sciences Research Council", "GB", 1),
    ("NERC", "Natural Environment Research Council", "GB", 1),
    ("WT", "Wellcome Trust", "GB", 0),
    ("LEV", "Leverhulme Trust", "GB", 0),
    ("ERC", "European Research Council", "BE", 1),
]
# funder, name, maximum award, maximum months, early career only
GRANT_SCHEMES = [
    ("EPSRC", "Standard Research", 1200000.0, 48, 0),
    ("EPSRC", "New Investigator Award", 500000.0, 36, 1),
    ("NERC", "Pushing the Frontiers", 650000.0, 36, 0),
    ("NERC", "Highlight Topics", 2500000.0, 60, 0),
    ("WT", "Discovery Award", 5000000.0, 96, 0),
    ("WT", "Early-Career Award", 800000.0, 60, 1),
    ("LEV", "Research Project Grant", 500000.0, 60, 0),
    ("LEV", "Early Career Fellowship", 100000.0, 36, 1),
    ("ERC", "Starting Grant", 1500000.0, 60, 1),
    ("ERC", "Advanced Grant", 2500000.0, 60, 0),
]
GRANT_INSTITUTIONS = [
    ("University of Northam", "Northam"),
    ("Kingsbridge University", "Kingsbridge"),
    ("Eastmoor Institute of Technology", "Eastmoor"),
    ("University of Westfold", "Westfold"),
]
GRANT_DEPARTMENTS = [
    ("Physics", "Science"),
    ("Chemistry", "Science"),
    ("Earth Sciences", "Science"),
    ("Computer Science", "Engineering"),
    ("Civil Engineering", "Engineering"),
    ("History", "Arts and Humanities"),
    ("Infection Biology", "Medicine"),
]
GRANT_FIRST = ["Amira", "Bruno", "Catherine", "David", "Elena", "Femi", "Greta", "Hiroshi", "Iain", "Jia", "Karen"]
GRANT_SURNAMES = ["Ahmed", "Brooks", "Chen", "Davies", "Eriksen", "Fernandes", "Gill", "Hughes", "Jones", "Kaur"]
GRANT_TOPICS = [
    "Quantum sensing for",
    "Machine learning of",
    "Low-carbon cement in",
    "Microbial resistance in",
    "Sea-level records of",
    "Medieval trade networks of",
    "Soil carbon under",
    "Battery chemistry for",
]
GRANT_OBJECTS = ["coastal cities", "the North Sea", "urban housing", "rural Wales", "hospital wards", "grid storage"]


def _grants_people(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Funders, schemes, institutions, departments and researchers."""
    connection.executemany("INSERT INTO funder VALUES (?, ?, ?, ?)", GRANT_FUNDERS)
    for scheme_id, row in enumerate(GRANT_SCHEMES, start=1):
        connection.execute("INSERT INTO scheme VALUES (?, ?, ?, ?, ?, ?)", (scheme_id, *row))
    dept_id = 0
    for inst_id, (name, city) in enumerate(GRANT_INSTITUTIONS, start=1):
        connection.execute(
            "INSERT INTO institution VALUES (?, ?, ?, ?)", (inst_id, name, city, f"1000{rng.randint(1000, 9999)}")
        )
        for dept_name, faculty in rng.sample(GRANT_DEPARTMENTS, 5):
            dept_id += 1
            connection.execute("INSERT INTO department VALUES (?, ?, ?, ?)", (dept_id, inst_id, dept_name, faculty))
    for researcher_id in range(1, 121):
        stage = rng.choices([1, 2, 3, 4], [25, 35, 25, 15])[0]
        phd = None if rng.random() < 0.06 else 2024 - 3 * stage - rng.randint(0, 8)
        digits = f"{rng.randint(1, 3)}-{rng.randint(0, 9999):04d}-{rng.randint(0, 9999):04d}"
        orcid = None if rng.random() < 0.1 else f"0000-000{digits}"
        connection.execute(
            "INSERT INTO researcher VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (researcher_id, orcid, "Prof" if stage == 4 else rng.choice(["Dr", "Dr", "Dr", "Ms", "Mr"]),
             rng.choice(GRANT_FIRST), rng.choice(GRANT_SURNAMES), rng.randint(1, dept_id), stage, phd),
        )  # fmt: skip


def _grants_award(
    connection: sqlite3.Connection, rng: random.Random, app_ref: str, amount: float, start: date, months: int
) -> None:
    """The award of an application and its instalments."""
    grant_no = f"G{app_ref[-6:].replace('/', '')}"
    awarded = round(amount * rng.choice([1, 1, 0.95, 0.9, 0.8]), 2)
    end = start + timedelta(days=months * 30)
    connection.execute(
        "INSERT INTO award VALUES (?, ?, ?, ?, ?, ?)",
        (grant_no, app_ref, awarded, start.isoformat(), end.isoformat(), int(rng.random() < 0.15)),
    )
    years = max(1, months // 12)
    for instalment in range(1, years + 1):
        due = start + timedelta(days=365 * (instalment - 1))
        connection.execute(
            "INSERT INTO payment VALUES (?, ?, ?, ?, ?)",
            (grant_no, instalment, due.isoformat(), round(awarded / years, 2), int(due < date(2026, 6, 1))),
        )


def _grants_applications(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Applications with their investigators and reviews; awards of those funded."""
    for number in range(1, 181):
        scheme_id = rng.randint(1, len(GRANT_SCHEMES))
        funder, _name, max_award, max_months, _early = GRANT_SCHEMES[scheme_id - 1]
        app_ref = f"{funder}/{rng.choice('NRSTVWXY')}{number:06d}/1"
        submitted = date(2022, 1, 10) + timedelta(days=rng.randint(0, 1400))
        months = rng.choice([m for m in (12, 24, 36, 48, 60, 96) if m <= max_months])
        requested = round(max_award * rng.uniform(0.2, 1.0), -2)
        status = rng.choices(["AWD", "REJ", "WDN", "PND"], [28, 55, 5, 12])[0]
        connection.execute(
            "INSERT INTO application VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (app_ref, scheme_id, f"{rng.choice(GRANT_TOPICS)} {rng.choice(GRANT_OBJECTS)}", submitted.isoformat(),
             rng.randint(1, 3), requested, months, status,
             None if status in ("WDN", "PND") else rng.randint(1, 30)),
        )  # fmt: skip
        team = rng.sample(range(1, 121), rng.randint(1, 4) + 4)
        for position, researcher_id in enumerate(team[:-4]):
            connection.execute(
                "INSERT INTO investigator VALUES (?, ?, ?, ?)",
                (app_ref, researcher_id, "PI" if position == 0 else "CoI", rng.choice([5, 10, 10, 20, 30, 50])),
            )
        for reviewer_id in team[-rng.randint(2, 4) :]:
            returned = None if status == "PND" and rng.random() < 0.5 else submitted + timedelta(rng.randint(30, 120))
            connection.execute(
                "INSERT INTO review VALUES (?, ?, ?, ?, ?)",
                (app_ref, reviewer_id, rng.randint(1, 6) if returned else None,
                 returned.isoformat() if returned else None, int(rng.random() < 0.05)),
            )  # fmt: skip
        if status == "AWD":
            _grants_award(connection, rng, app_ref, requested, submitted + timedelta(days=rng.randint(150, 300)),
                          months)  # fmt: skip


def build_grants_database(path: str | Path, seed: int = 35) -> Path:
    """Write the research grants database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, GRANTS_SCHEMA, seed) as (connection, rng):
        _grants_people(connection, rng)
        _grants_applications(connection, rng)
    return Path(path)


VET_SCHEMA = """
CREATE TABLE site (
    site_cd TEXT PRIMARY KEY,
    site_nm TEXT NOT NULL,
    town_nm TEXT NOT NULL,
    open_yr INTEGER,
    xray_flg INTEGER NOT NULL
);
CREATE TABLE staff (
    staff_id INTEGER PRIMARY KEY,
    site_cd TEXT NOT NULL REFERENCES site (site_cd),
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    role_cd TEXT NOT NULL,
    rcvs_no TEXT,
    fte_rt REAL NOT NULL,
    locum_flg INTEGER NOT NULL
);
CREATE TABLE owner (
    owner_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    postcode TEXT NOT NULL,
    phone_no TEXT,
    reg_dt TEXT NOT NULL
);
CREATE TABLE animal (
    animal_id INTEGER PRIMARY KEY,
    owner_id INTEGER NOT NULL REFERENCES owner (owner_id),
    pet_nm TEXT NOT NULL,
    species_cd TEXT NOT NULL,
    breed_nm TEXT,
    sex_cd TEXT NOT NULL,
    birth_dt TEXT,
    neutered_flg INTEGER NOT NULL,
    chip_no TEXT,
    deceased_flg INTEGER NOT NULL
);
CREATE TABLE consult (
    consult_id INTEGER PRIMARY KEY,
    animal_id INTEGER NOT NULL REFERENCES animal (animal_id),
    staff_id INTEGER NOT NULL REFERENCES staff (staff_id),
    site_cd TEXT NOT NULL REFERENCES site (site_cd),
    consult_dt TEXT NOT NULL,
    slot_no INTEGER NOT NULL,
    reason_cd TEXT NOT NULL,
    weight_kg REAL,
    fee_amt REAL NOT NULL,
    status_cd TEXT NOT NULL
);
CREATE TABLE treatment (
    treat_cd TEXT PRIMARY KEY,
    treat_nm TEXT NOT NULL,
    cat_cd TEXT NOT NULL,
    list_amt REAL NOT NULL
);
CREATE TABLE consult_treatment (
    consult_id INTEGER NOT NULL REFERENCES consult (consult_id),
    treat_cd TEXT NOT NULL REFERENCES treatment (treat_cd),
    qty INTEGER NOT NULL,
    PRIMARY KEY (consult_id, treat_cd)
);
CREATE TABLE vaccination (
    animal_id INTEGER NOT NULL REFERENCES animal (animal_id),
    vacc_cd TEXT NOT NULL,
    given_dt TEXT NOT NULL,
    batch_no TEXT NOT NULL,
    due_dt TEXT NOT NULL,
    staff_id INTEGER NOT NULL REFERENCES staff (staff_id),
    PRIMARY KEY (animal_id, vacc_cd, given_dt)
);
CREATE TABLE policy (
    policy_no TEXT PRIMARY KEY,
    animal_id INTEGER NOT NULL REFERENCES animal (animal_id),
    insurer_nm TEXT NOT NULL,
    start_dt TEXT NOT NULL,
    excess_amt REAL NOT NULL,
    lifetime_flg INTEGER NOT NULL
);
"""

VET_SITES = [
    ("HBR", "Harbour Vets", "Portsea", 1998, 1),
    ("MDW", "Meadowside Animal Hospital", "Fareham", 2006, 1),
    ("OAK", "Oakley Pet Clinic", "Havant", None, 0),
]
VET_FIRST = ["Anna", "Ben", "Chloe", "Dan", "Ellie", "Femi", "Grace", "Hugo", "Isla", "Jake", "Kim", "Luke", "Maya"]
VET_LAST = ["Archer", "Bell", "Cole", "Dunn", "Ellis", "Ford", "Hart", "Jones", "Khan", "Moss", "Price", "Shaw"]
VET_PETS = ["Bella", "Max", "Luna", "Charlie", "Milo", "Poppy", "Teddy", "Daisy", "Bonnie", "Oscar", "Willow", "Coco"]
VET_BREEDS = {
    "DOG": ["Labrador", "Cocker Spaniel", "Border Collie", "Dachshund", "Staffie", None],
    "CAT": ["Domestic Shorthair", "Siamese", "Maine Coon", None],
    "RAB": ["Netherland Dwarf", "Lop", None],
    "GPG": [None],
}
VET_TREATMENTS = [
    ("EXAM", "General examination", "CON", 45.0),
    ("VACC-B", "Booster vaccination", "PRV", 52.0),
    ("FLEA", "Flea treatment", "PRV", 14.5),
    ("WORM", "Worming tablet", "PRV", 9.0),
    ("DENT", "Dental scale and polish", "SUR", 260.0),
    ("XRAY", "Radiograph", "DIA", 140.0),
    ("BLOOD", "Blood panel", "DIA", 95.0),
    ("SPAY", "Spay", "SUR", 310.0),
    ("NEUT", "Castration", "SUR", 220.0),
    ("ABX", "Antibiotic course", "MED", 28.0),
    ("NSAID", "Pain relief", "MED", 22.0),
    ("NAIL", "Nail clip", "CON", 12.0),
]
VET_INSURERS = ["Petplan", "Animal Friends", "ManyPets", "Direct Line"]


def _vet_people(connection: sqlite3.Connection, rng: random.Random) -> list[int]:
    """Sites, staff, owners and their animals; returns the living animals' ids."""
    connection.executemany("INSERT INTO site VALUES (?, ?, ?, ?, ?)", VET_SITES)
    connection.executemany("INSERT INTO treatment VALUES (?, ?, ?, ?)", VET_TREATMENTS)
    for staff_id in range(1, 19):
        role = rng.choices(["VET", "NUR", "REC"], [8, 6, 4])[0]
        connection.execute(
            "INSERT INTO staff VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (staff_id, VET_SITES[staff_id % 3][0], rng.choice(VET_FIRST), rng.choice(VET_LAST), role,
             f"{rng.randint(10000, 99999)}" if role != "REC" else None, rng.choice([1.0, 1.0, 0.8, 0.6, 0.5]),
             int(rng.random() < 0.15)),
        )  # fmt: skip
    animals = []
    for owner_id in range(1, 141):
        reg = date(2015, 1, 5) + timedelta(days=rng.randint(0, 3600))
        phone = None if rng.random() < 0.1 else f"07{rng.randint(100000000, 999999999)}"
        connection.execute(
            "INSERT INTO owner VALUES (?, ?, ?, ?, ?, ?)",
            (owner_id, rng.choice(VET_FIRST), rng.choice(VET_LAST),
             f"PO{rng.randint(1, 17)} {rng.randint(1, 9)}{rng.choice('ABDEFGHJ')}{rng.choice('LNPQRSTU')}", phone,
             reg.isoformat()),
        )  # fmt: skip
        for _ in range(rng.choices([1, 2, 3], [70, 22, 8])[0]):
            animal_id = len(animals) + 1
            species = rng.choices(list(VET_BREEDS), [50, 35, 10, 5])[0]
            born = None if rng.random() < 0.08 else reg - timedelta(days=rng.randint(60, 4000))
            dead = int(rng.random() < 0.07)
            connection.execute(
                "INSERT INTO animal VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (animal_id, owner_id, rng.choice(VET_PETS), species, rng.choice(VET_BREEDS[species]),
                 rng.choice("MF"), born.isoformat() if born else None, int(rng.random() < 0.6),
                 None if species in ("RAB", "GPG") or rng.random() < 0.1 else f"9860{rng.randint(10**10, 10**11 - 1)}",
                 dead),
            )  # fmt: skip
            animals.append(animal_id)
            if species in ("DOG", "CAT") and rng.random() < 0.45:
                connection.execute(
                    "INSERT INTO policy VALUES (?, ?, ?, ?, ?, ?)",
                    (f"P{rng.randint(1000000, 9999999)}", animal_id, rng.choice(VET_INSURERS),
                     (reg + timedelta(days=rng.randint(0, 400))).isoformat(), rng.choice([0.0, 99.0, 150.0, 250.0]),
                     int(rng.random() < 0.6)),
                )  # fmt: skip
    return animals


def _vet_consults(connection: sqlite3.Connection, rng: random.Random, animals: list[int]) -> None:
    """About 650 consultations with their treatments, and the vaccinations given."""
    vets = [row[0] for row in connection.execute("SELECT staff_id FROM staff WHERE role_cd != 'REC'")]
    for consult_id in range(1, 651):
        animal_id = rng.choice(animals)
        staff_id = rng.choice(vets)
        site = connection.execute("SELECT site_cd FROM staff WHERE staff_id = ?", (staff_id,)).fetchone()[0]
        day = date(2025, 1, 2) + timedelta(days=rng.randint(0, 330))
        reason = rng.choices(["CHK", "VAC", "ILL", "INJ", "SUR", "DEN"], [25, 20, 25, 12, 10, 8])[0]
        status = rng.choices(["ATT", "DNA", "CNL"], [86, 6, 8])[0]
        attended = status == "ATT"
        connection.execute(
            "INSERT INTO consult VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (consult_id, animal_id, staff_id, site, day.isoformat(), rng.randint(1, 16), reason,
             round(rng.uniform(0.8, 42.0), 1) if attended and rng.random() < 0.8 else None,
             rng.choice([45.0, 45.0, 52.0, 60.0]) if attended else 0.0, status),
        )  # fmt: skip
        if not attended:
            continue
        for code in rng.sample([row[0] for row in VET_TREATMENTS], rng.randint(1, 3)):
            connection.execute(
                "INSERT INTO consult_treatment VALUES (?, ?, ?)", (consult_id, code, rng.choice([1, 1, 2]))
            )
        if reason == "VAC":
            vacc = rng.choice(["DHPPI", "LEPTO", "KC", "FVRCP", "RHD2"])
            connection.execute(
                "INSERT OR IGNORE INTO vaccination VALUES (?, ?, ?, ?, ?, ?)",
                (animal_id, vacc, day.isoformat(), f"B{rng.randint(1000, 9999)}{rng.choice('ABC')}",
                 (day + timedelta(days=365)).isoformat(), staff_id),
            )  # fmt: skip


def build_vet_database(path: str | Path, seed: int = 35) -> Path:
    """Write the veterinary practice database to `path` (replacing it) from `seed`; the same seed, the same file."""
    with _fresh_database(path, VET_SCHEMA, seed) as (connection, rng):
        _vet_consults(connection, rng, _vet_people(connection, rng))
    return Path(path)


FESTIVAL_SCHEMA = """
CREATE TABLE venue (
    venue_cd TEXT PRIMARY KEY,
    venue_nm TEXT NOT NULL,
    city_nm TEXT NOT NULL,
    seat_cnt INTEGER NOT NULL,
    step_free_flg INTEGER NOT NULL
);
CREATE TABLE film (
    film_id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    orig_title TEXT,
    ctry_cd TEXT NOT NULL,
    release_yr INTEGER NOT NULL,
    runtime_min INTEGER NOT NULL,
    lang_cd TEXT NOT NULL,
    premiere_cd TEXT NOT NULL,
    section_cd TEXT NOT NULL,
    ed_yr INTEGER NOT NULL
);
CREATE TABLE person (
    person_id INTEGER PRIMARY KEY,
    full_nm TEXT NOT NULL,
    ctry_cd TEXT,
    birth_yr INTEGER
);
CREATE TABLE film_credit (
    film_id INTEGER NOT NULL REFERENCES film (film_id),
    person_id INTEGER NOT NULL REFERENCES person (person_id),
    role_cd TEXT NOT NULL,
    billing_no INTEGER NOT NULL,
    PRIMARY KEY (film_id, person_id, role_cd)
);
CREATE TABLE screening (
    screening_id INTEGER PRIMARY KEY,
    film_id INTEGER NOT NULL REFERENCES film (film_id),
    venue_cd TEXT NOT NULL REFERENCES venue (venue_cd),
    start_ts TEXT NOT NULL,
    qa_flg INTEGER NOT NULL,
    sold_qty INTEGER NOT NULL,
    comp_qty INTEGER NOT NULL
);
CREATE TABLE jury (
    jury_id INTEGER PRIMARY KEY,
    section_cd TEXT NOT NULL,
    ed_yr INTEGER NOT NULL,
    president_id INTEGER NOT NULL REFERENCES person (person_id)
);
CREATE TABLE jury_member (
    jury_id INTEGER NOT NULL REFERENCES jury (jury_id),
    person_id INTEGER NOT NULL REFERENCES person (person_id),
    PRIMARY KEY (jury_id, person_id)
);
CREATE TABLE prize (
    prize_cd TEXT NOT NULL,
    ed_yr INTEGER NOT NULL,
    film_id INTEGER NOT NULL REFERENCES film (film_id),
    jury_id INTEGER REFERENCES jury (jury_id),
    prize_amt REAL,
    PRIMARY KEY (prize_cd, ed_yr)
);
CREATE TABLE pass (
    pass_no TEXT PRIMARY KEY,
    holder_nm TEXT NOT NULL,
    pass_cd TEXT NOT NULL,
    org_nm TEXT,
    ed_yr INTEGER NOT NULL
);
CREATE TABLE ticket (
    ticket_no INTEGER PRIMARY KEY,
    screening_id INTEGER NOT NULL REFERENCES screening (screening_id),
    pass_no TEXT REFERENCES pass (pass_no),
    price_amt REAL NOT NULL,
    channel_cd TEXT NOT NULL,
    scanned_flg INTEGER NOT NULL
);
"""

FEST_VENUES = [
    ("ODN1", "Odeon Screen 1", "Bristol", 420, 1),
    ("ODN4", "Odeon Screen 4", "Bristol", 140, 1),
    ("WAT", "Watershed Cinema", "Bristol", 190, 1),
    ("ARN", "Arnolfini Auditorium", "Bristol", 110, 0),
    ("CUB", "The Cube", "Bristol", 98, 0),
    ("BTH", "Little Theatre", "Bath", 192, 0),
]
FEST_WORDS = ["Winter", "Salt", "The Last", "Quiet", "River", "Small", "Northern", "Borrowed", "Glass", "Night"]
FEST_NOUNS = ["Harbour", "Light", "Summer", "Kingdom", "Houses", "Years", "Garden", "Letters", "Crossing", "Sister"]
FEST_COUNTRIES = ["GB", "GB", "FR", "DE", "IT", "ES", "DK", "KR", "JP", "IR", "BR", "US", "NG", "PL"]
FEST_LANGS = {"GB": "en", "US": "en", "NG": "en", "FR": "fr", "DE": "de", "IT": "it", "ES": "es", "DK": "da",
              "KR": "ko", "JP": "ja", "IR": "fa", "BR": "pt", "PL": "pl"}  # fmt: skip
FEST_FIRST = ["Ada", "Bruno", "Céline", "Dag", "Emeka", "Farah", "Giulia", "Hiro", "Ines", "Jonas", "Kasia", "Leo",
              "Mina", "Nils", "Olga", "Pedro", "Rosa", "Sam", "Tomás", "Yuki"]  # fmt: skip
FEST_LAST = ["Almeida", "Berg", "Costa", "Dubois", "Eze", "Fischer", "Garcia", "Hansen", "Ito", "Kim", "Lindqvist",
             "Moreau", "Nowak", "Okafor", "Park", "Rossi", "Sato", "Walsh"]  # fmt: skip
FEST_PRIZES = [("BEST", "CMP", 10000.0), ("JURY", "CMP", 5000.0), ("DEBUT", "NEW", 3000.0), ("DOC", "DOC", 3000.0),
               ("SHORT", "SHT", 1000.0), ("AUD", None, None)]  # fmt: skip


def _festival_people(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Venues, people, films with their credits, juries and prizes for the 2024 and 2025 editions."""
    connection.executemany("INSERT INTO venue VALUES (?, ?, ?, ?, ?)", FEST_VENUES)
    for person_id in range(1, 181):
        connection.execute(
            "INSERT INTO person VALUES (?, ?, ?, ?)",
            (person_id, f"{rng.choice(FEST_FIRST)} {rng.choice(FEST_LAST)}",
             None if rng.random() < 0.1 else rng.choice(FEST_COUNTRIES),
             None if rng.random() < 0.2 else rng.randint(1950, 2000)),
        )  # fmt: skip
    film_id = 0
    for edition in (2024, 2025):
        for section in ["CMP"] * 12 + ["NEW"] * 10 + ["DOC"] * 10 + ["SHT"] * 16 + ["GAL"] * 6:
            film_id += 1
            country = rng.choice(FEST_COUNTRIES)
            title = f"{rng.choice(FEST_WORDS)} {rng.choice(FEST_NOUNS)}"
            connection.execute(
                "INSERT INTO film VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (film_id, title, None if FEST_LANGS[country] == "en" else f"({FEST_LANGS[country]}) {title}",
                 country, edition - rng.choice([0, 0, 1]),
                 rng.randint(8, 25) if section == "SHT" else rng.randint(72, 165), FEST_LANGS[country],
                 rng.choices(["WP", "IP", "EP", "UKP"], [15, 20, 15, 50])[0], section, edition),
            )  # fmt: skip
            crew = rng.sample(range(1, 181), 5)
            roles = ["DIR", "PRD", "WRT", "ACT", "ACT"]
            for billing, (person_id, role) in enumerate(zip(crew, roles, strict=True), start=1):
                connection.execute("INSERT INTO film_credit VALUES (?, ?, ?, ?)", (film_id, person_id, role, billing))
        for section in ("CMP", "NEW", "DOC", "SHT"):
            members = rng.sample(range(1, 181), rng.randint(3, 5))
            cursor = connection.execute(
                "INSERT INTO jury (section_cd, ed_yr, president_id) VALUES (?, ?, ?)", (section, edition, members[0])
            )
            connection.executemany(
                "INSERT INTO jury_member VALUES (?, ?)", [(cursor.lastrowid, person) for person in members]
            )
        for code, section, amount in FEST_PRIZES:
            films = [row[0] for row in connection.execute(
                "SELECT film_id FROM film WHERE ed_yr = ? AND (? IS NULL OR section_cd = ?)",
                (edition, section, section),
            )]  # fmt: skip
            jury = connection.execute(
                "SELECT jury_id FROM jury WHERE ed_yr = ? AND section_cd = ?", (edition, section)
            ).fetchone()
            connection.execute(
                "INSERT INTO prize VALUES (?, ?, ?, ?, ?)",
                (code, edition, rng.choice(films), jury[0] if jury else None, amount),
            )


def _festival_screenings(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Two or three screenings a film, about 1,300 tickets and the passes that booked some of them."""
    for edition in (2024, 2025):
        for number in range(1, 61):
            kind = rng.choices(["PRS", "IND", "PUB", "JUR"], [20, 25, 50, 5])[0]
            connection.execute(
                "INSERT INTO pass VALUES (?, ?, ?, ?, ?)",
                (f"{edition % 100}{kind}{number:04d}", f"{rng.choice(FEST_FIRST)} {rng.choice(FEST_LAST)}", kind,
                 rng.choice(["BBC", "Sight and Sound", "Curzon", "BFI", "Variety"]) if kind in ("PRS", "IND") else None,
                 edition),
            )  # fmt: skip
    passes = {
        edition: [row[0] for row in connection.execute("SELECT pass_no FROM pass WHERE ed_yr = ?", (edition,))]
        for edition in (2024, 2025)
    }
    films = list(connection.execute("SELECT film_id, ed_yr FROM film"))
    for film_id, edition in films:
        for _ in range(rng.choice([1, 2, 2, 3])):
            venue, _name, _city, seats, _free = rng.choice(FEST_VENUES)
            start = datetime(edition, 10, 9, 10, 0) + timedelta(days=rng.randint(0, 9), minutes=30 * rng.randint(0, 24))
            sold = rng.randint(seats // 4, seats)
            cursor = connection.execute(
                "INSERT INTO screening (film_id, venue_cd, start_ts, qa_flg, sold_qty, comp_qty)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (film_id, venue, start.isoformat(sep=" ", timespec="minutes"), int(rng.random() < 0.3), sold,
                 rng.randint(0, 20)),
            )  # fmt: skip
            for _ in range(rng.randint(2, 8)):
                pass_no = rng.choice(passes[edition]) if rng.random() < 0.3 else None
                connection.execute(
                    "INSERT INTO ticket (screening_id, pass_no, price_amt, channel_cd, scanned_flg)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (cursor.lastrowid, pass_no, 0.0 if pass_no else rng.choice([8.5, 11.0, 11.0, 13.5]),
                     rng.choice(["WEB", "WEB", "BOX", "APP"]), int(rng.random() < 0.88)),
                )  # fmt: skip


def build_festival_database(path: str | Path, seed: int = 35) -> Path:
    """Write the film festival database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, FESTIVAL_SCHEMA, seed) as (connection, rng):
        _festival_people(connection, rng)
        _festival_screenings(connection, rng)
    return Path(path)


BREWERY_SCHEMA = """
CREATE TABLE supplier (
    supp_cd TEXT PRIMARY KEY,
    supp_nm TEXT NOT NULL,
    ctry_cd TEXT NOT NULL,
    lead_days INTEGER NOT NULL,
    organic_certified INTEGER NOT NULL
);
CREATE TABLE ingredient (
    ingr_id INTEGER PRIMARY KEY,
    ingr_nm TEXT NOT NULL,
    ingr_type_cd TEXT NOT NULL,
    supp_cd TEXT NOT NULL REFERENCES supplier (supp_cd),
    unit_cost_amt REAL NOT NULL,
    alpha_pct REAL,
    allergen INTEGER NOT NULL
);
CREATE TABLE beer (
    beer_cd TEXT PRIMARY KEY,
    beer_nm TEXT NOT NULL UNIQUE,
    style_cd TEXT NOT NULL,
    abv REAL NOT NULL,
    ibu INTEGER,
    launch_yr INTEGER NOT NULL,
    seasonal INTEGER NOT NULL,
    vegan INTEGER NOT NULL,
    retired INTEGER NOT NULL
);
CREATE TABLE recipe_line (
    beer_cd TEXT NOT NULL REFERENCES beer (beer_cd),
    ingr_id INTEGER NOT NULL REFERENCES ingredient (ingr_id),
    qty_kg REAL NOT NULL,
    add_stage_cd TEXT NOT NULL,
    PRIMARY KEY (beer_cd, ingr_id)
);
CREATE TABLE staff (
    staff_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    role_cd TEXT NOT NULL,
    hire_dt TEXT NOT NULL,
    ibd_qualified INTEGER NOT NULL,
    keyholder INTEGER NOT NULL
);
CREATE TABLE brew (
    batch_no INTEGER PRIMARY KEY,
    beer_cd TEXT NOT NULL REFERENCES beer (beer_cd),
    brew_dt TEXT NOT NULL,
    brewer_id INTEGER NOT NULL REFERENCES staff (staff_id),
    qa_by INTEGER REFERENCES staff (staff_id),
    fv_no INTEGER NOT NULL,
    vol_hl REAL NOT NULL,
    og REAL NOT NULL,
    fg REAL,
    dumped INTEGER NOT NULL
);
CREATE TABLE pub (
    pub_id INTEGER PRIMARY KEY,
    pub_nm TEXT NOT NULL,
    town_nm TEXT NOT NULL,
    postcode TEXT NOT NULL,
    tap_cnt INTEGER NOT NULL,
    open_yr INTEGER,
    tied INTEGER NOT NULL
);
CREATE TABLE cust_order (
    order_no INTEGER PRIMARY KEY,
    pub_id INTEGER NOT NULL REFERENCES pub (pub_id),
    order_dt TEXT NOT NULL,
    deliv_dt TEXT,
    status_cd TEXT NOT NULL,
    invoice_amt REAL NOT NULL,
    prepaid INTEGER NOT NULL
);
CREATE TABLE order_line (
    order_no INTEGER NOT NULL REFERENCES cust_order (order_no),
    line_no INTEGER NOT NULL,
    beer_cd TEXT NOT NULL REFERENCES beer (beer_cd),
    batch_no INTEGER REFERENCES brew (batch_no),
    pack_cd TEXT NOT NULL,
    qty INTEGER NOT NULL,
    line_amt REAL NOT NULL,
    PRIMARY KEY (order_no, line_no)
);
"""

BREW_SUPPLIERS = [
    ("CRISP", "Crisp Malting", "GB", 5, 0),
    ("SIMP", "Simpsons Malt", "GB", 7, 1),
    ("WEYR", "Weyermann", "DE", 14, 0),
    ("CHHOP", "Charles Faram", "GB", 4, 0),
    ("YCH", "Yakima Chief", "US", 21, 1),
    ("LALL", "Lallemand", "CA", 10, 0),
]
# name, type, supplier, unit cost, alpha acid (hops), allergen
BREW_INGREDIENTS = [
    ("Maris Otter", "MLT", "CRISP", 1.12, None, 1),
    ("Extra Pale", "MLT", "SIMP", 0.98, None, 1),
    ("Crystal 150", "MLT", "SIMP", 1.35, None, 1),
    ("Munich", "MLT", "WEYR", 1.41, None, 1),
    ("Chocolate Malt", "MLT", "CRISP", 1.60, None, 1),
    ("Flaked Oats", "ADJ", "CRISP", 1.05, None, 1),
    ("Lactose", "ADJ", "WEYR", 3.20, None, 1),
    ("East Kent Goldings", "HOP", "CHHOP", 18.5, 5.1, 0),
    ("Fuggle", "HOP", "CHHOP", 16.0, 4.4, 0),
    ("Citra", "HOP", "YCH", 34.0, 12.6, 0),
    ("Mosaic", "HOP", "YCH", 33.5, 11.9, 0),
    ("Simcoe", "HOP", "YCH", 29.0, 13.2, 0),
    ("Nottingham", "YST", "LALL", 95.0, None, 0),
    ("Verdant IPA", "YST", "LALL", 110.0, None, 0),
    ("Irish Moss", "ADJ", "LALL", 12.0, None, 0),
]
# code, name, style, abv, ibu, launch year, seasonal, vegan, retired
BREW_BEERS = [
    ("BTR", "Harbour Bitter", "BIT", 3.8, 32, 2014, 0, 1, 0),
    ("BST", "Best Foot Forward", "BIT", 4.2, 36, 2014, 0, 1, 0),
    ("PAL", "Gull Pale", "PA", 4.5, 40, 2016, 0, 1, 0),
    ("IPA", "Lighthouse IPA", "IPA", 6.2, 60, 2017, 0, 1, 0),
    ("NEI", "Fog Bank", "NEIPA", 6.8, 35, 2020, 0, 0, 0),
    ("STT", "Anchor Chain Stout", "STT", 5.0, 42, 2015, 0, 1, 0),
    ("MLK", "Milk Run", "STT", 4.8, 28, 2019, 0, 0, 1),
    ("PRT", "Dockside Porter", "PRT", 5.4, 34, 2016, 1, 1, 0),
    ("XMS", "Winter Warmer", "OLD", 7.0, 38, 2018, 1, 1, 0),
    ("SMR", "Summer Haze", "WHT", 4.0, 18, 2021, 1, 1, 0),
    ("DIP", "Tidal DIPA", "IPA", 8.2, 75, 2022, 0, 1, 0),
    ("MLD", "Mild Mannered", "MLD", 3.4, 20, 2014, 0, 1, 1),
]
BREW_STAGES = {"MLT": "MASH", "ADJ": "MASH", "HOP": "BOIL", "YST": "FERM"}
BREW_TOWNS = ["Falmouth", "Truro", "Penryn", "St Ives", "Helston", "Redruth", "Newquay"]
BREW_PUB_WORDS = ["The Ship", "The Anchor", "The Crown", "The Red Lion", "The Packet", "The Chain Locker",
                  "The Star", "The Seven Stars", "The Old Quay", "The Front", "The Boathouse", "The Bell"]  # fmt: skip
BREW_FIRST = [
    "Alys",
    "Bryn",
    "Cerys",
    "Dylan",
    "Elin",
    "Gareth",
    "Hywel",
    "Iwan",
    "Jago",
    "Kerensa",
    "Lowen",
    "Morwenna",
]
BREW_LAST = ["Trevithick", "Pascoe", "Penrose", "Hocking", "Rowe", "Jenkin", "Bolitho", "Nance", "Curnow", "Rowe"]


def _brewery_stock(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Suppliers, ingredients, beers with their recipes, staff and about 300 brews."""
    connection.executemany("INSERT INTO supplier VALUES (?, ?, ?, ?, ?)", BREW_SUPPLIERS)
    for ingr_id, row in enumerate(BREW_INGREDIENTS, start=1):
        connection.execute("INSERT INTO ingredient VALUES (?, ?, ?, ?, ?, ?, ?)", (ingr_id, *row))
    connection.executemany("INSERT INTO beer VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", BREW_BEERS)
    by_type: dict[str, list[int]] = {}
    for ingr_id, (_name, kind, *_rest) in enumerate(BREW_INGREDIENTS, start=1):
        by_type.setdefault(kind, []).append(ingr_id)
    for code, *_rest in BREW_BEERS:
        chosen = rng.sample(by_type["MLT"], rng.randint(2, 3)) + rng.sample(by_type["HOP"], rng.randint(1, 3))
        chosen += [rng.choice(by_type["YST"])] + rng.sample(by_type["ADJ"], rng.randint(0, 1))
        for ingr_id in chosen:
            kind = BREW_INGREDIENTS[ingr_id - 1][1]
            qty = {"MLT": rng.uniform(40, 260), "HOP": rng.uniform(0.5, 6), "YST": rng.uniform(0.2, 1)}.get(kind, 8.0)
            stage = "DRY" if kind == "HOP" and rng.random() < 0.35 else BREW_STAGES[kind]
            connection.execute("INSERT INTO recipe_line VALUES (?, ?, ?, ?)", (code, ingr_id, round(qty, 1), stage))
    for staff_id in range(1, 15):
        role = rng.choices(["BRW", "CEL", "DRV", "SAL", "OFF"], [5, 3, 3, 2, 1])[0]
        connection.execute(
            "INSERT INTO staff VALUES (?, ?, ?, ?, ?, ?, ?)",
            (staff_id, rng.choice(BREW_FIRST), rng.choice(BREW_LAST), role,
             (date(2013, 3, 1) + timedelta(days=rng.randint(0, 4000))).isoformat(),
             int(role == "BRW" and rng.random() < 0.6), int(rng.random() < 0.3)),
        )  # fmt: skip
    brewers = [row[0] for row in connection.execute("SELECT staff_id FROM staff WHERE role_cd IN ('BRW', 'CEL')")]
    live = [row for row in BREW_BEERS if not row[8]]
    for batch_no in range(1001, 1301):
        code, _name, _style, abv, *_rest = rng.choices(live, [6, 4, 5, 4, 3, 3, 1, 1, 1, 2])[0]
        day = date(2024, 1, 3) + timedelta(days=rng.randint(0, 690))
        og = round(1.0 + abv * 0.0078 + rng.uniform(-0.002, 0.002), 3)
        dumped = int(rng.random() < 0.03)
        connection.execute(
            "INSERT INTO brew VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (batch_no, code, day.isoformat(), rng.choice(brewers), None if rng.random() < 0.15 else rng.choice(brewers),
             rng.randint(1, 8), rng.choice([10.0, 10.0, 20.0, 30.0]), og,
             None if dumped or day > date(2025, 11, 10) else round(og - abv * 0.0076, 3), dumped),
        )  # fmt: skip


def _brewery_trade(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Pubs, about 800 orders and their lines."""
    for pub_id in range(1, 41):
        connection.execute(
            "INSERT INTO pub VALUES (?, ?, ?, ?, ?, ?, ?)",
            (pub_id, rng.choice(BREW_PUB_WORDS), rng.choice(BREW_TOWNS),
             f"TR{rng.randint(1, 27)} {rng.randint(1, 9)}{rng.choice('ABDEHLNPRSTW')}{rng.choice('ABDEHLNPRSTW')}",
             rng.choice([2, 3, 4, 4, 6, 8, 10]), None if rng.random() < 0.3 else rng.randint(1720, 2019),
             int(rng.random() < 0.35)),
        )  # fmt: skip
    brews = connection.execute("SELECT batch_no, beer_cd, brew_dt FROM brew WHERE dumped = 0").fetchall()
    prices = {"FIR": 92.0, "KIL": 170.0, "KEG": 145.0, "CAN": 38.0}
    for order_no in range(50001, 50801):
        day = date(2024, 2, 1) + timedelta(days=rng.randint(0, 660))
        status = "DLV" if day < date(2025, 11, 1) else rng.choice(["NEW", "PCK", "DLV"])
        status = "CNL" if rng.random() < 0.04 else status
        lines = []
        for _ in range(rng.choices([1, 2, 3, 4], [30, 35, 25, 10])[0]):
            batch_no, beer, _brewed = rng.choice(brews)
            pack = rng.choices(list(prices), [45, 10, 30, 15])[0]
            qty = rng.randint(1, 6)
            lines.append((beer, None if rng.random() < 0.2 else batch_no, pack, qty, round(qty * prices[pack], 2)))
        connection.execute(
            "INSERT INTO cust_order VALUES (?, ?, ?, ?, ?, ?, ?)",
            (order_no, rng.randint(1, 40), day.isoformat(),
             (day + timedelta(days=rng.randint(1, 5))).isoformat() if status == "DLV" else None, status,
             0.0 if status == "CNL" else round(sum(line[4] for line in lines) * 1.2, 2), int(rng.random() < 0.1)),
        )  # fmt: skip
        for line_no, line in enumerate(lines, start=1):
            connection.execute("INSERT INTO order_line VALUES (?, ?, ?, ?, ?, ?, ?)", (order_no, line_no, *line))


def build_brewery_database(path: str | Path, seed: int = 35) -> Path:
    """Write the brewery database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, BREWERY_SCHEMA, seed) as (connection, rng):
        _brewery_stock(connection, rng)
        _brewery_trade(connection, rng)
    return Path(path)


ENERGY_SCHEMA = """
CREATE TABLE tariff (
    tariff_cd TEXT PRIMARY KEY,
    tariff_nm TEXT NOT NULL,
    fuel_cd TEXT NOT NULL,
    unit_rate_p REAL NOT NULL,
    standing_chg_p REAL NOT NULL,
    fixed INTEGER NOT NULL,
    green INTEGER NOT NULL,
    eff_from_dt TEXT NOT NULL
);
CREATE TABLE customer (
    cust_no INTEGER PRIMARY KEY,
    title TEXT,
    first_nm TEXT NOT NULL,
    surname TEXT NOT NULL,
    birth_yr INTEGER,
    email_addr TEXT,
    psr_flg INTEGER NOT NULL,
    paperless INTEGER NOT NULL,
    join_dt TEXT NOT NULL
);
CREATE TABLE premises (
    premises_id INTEGER PRIMARY KEY,
    addr_line1 TEXT NOT NULL,
    town_nm TEXT NOT NULL,
    postcode TEXT NOT NULL,
    prop_type_cd TEXT NOT NULL,
    epc_band TEXT,
    build_yr INTEGER,
    mpan TEXT UNIQUE
);
CREATE TABLE account (
    acct_no TEXT PRIMARY KEY,
    holder_cust_no INTEGER NOT NULL REFERENCES customer (cust_no),
    payer_cust_no INTEGER REFERENCES customer (cust_no),
    premises_id INTEGER NOT NULL REFERENCES premises (premises_id),
    tariff_cd TEXT NOT NULL REFERENCES tariff (tariff_cd),
    open_dt TEXT NOT NULL,
    close_dt TEXT,
    dd_flg INTEGER NOT NULL,
    bal_amt REAL NOT NULL
);
CREATE TABLE meter (
    meter_serial TEXT PRIMARY KEY,
    premises_id INTEGER NOT NULL REFERENCES premises (premises_id),
    fuel_cd TEXT NOT NULL,
    meter_type_cd TEXT NOT NULL,
    install_dt TEXT NOT NULL,
    prepayment INTEGER NOT NULL,
    commissioned INTEGER NOT NULL
);
CREATE TABLE reading (
    meter_serial TEXT NOT NULL REFERENCES meter (meter_serial),
    read_dt TEXT NOT NULL,
    register_cd TEXT NOT NULL,
    read_val REAL NOT NULL,
    kwh REAL,
    src_cd TEXT NOT NULL,
    estimated INTEGER NOT NULL,
    PRIMARY KEY (meter_serial, read_dt, register_cd)
);
CREATE TABLE bill (
    bill_no INTEGER PRIMARY KEY,
    acct_no TEXT NOT NULL REFERENCES account (acct_no),
    period_start_dt TEXT NOT NULL,
    period_end_dt TEXT NOT NULL,
    kwh_tot REAL NOT NULL,
    bill_amt REAL NOT NULL,
    vat_amt REAL NOT NULL,
    issued_dt TEXT NOT NULL
);
CREATE TABLE payment (
    pay_ref TEXT PRIMARY KEY,
    acct_no TEXT NOT NULL REFERENCES account (acct_no),
    bill_no INTEGER REFERENCES bill (bill_no),
    pay_dt TEXT NOT NULL,
    pay_amt REAL NOT NULL,
    method_cd TEXT NOT NULL,
    reversed INTEGER NOT NULL
);
CREATE TABLE outage (
    outage_id INTEGER PRIMARY KEY,
    district_cd TEXT NOT NULL,
    start_ts TEXT NOT NULL,
    end_ts TEXT,
    cause_cd TEXT NOT NULL,
    planned INTEGER NOT NULL,
    cust_cnt INTEGER NOT NULL
);
CREATE TABLE outage_premises (
    outage_id INTEGER NOT NULL REFERENCES outage (outage_id),
    premises_id INTEGER NOT NULL REFERENCES premises (premises_id),
    restored_ts TEXT,
    comp_amt REAL,
    PRIMARY KEY (outage_id, premises_id)
);
"""

# code, name, fuel, unit rate (pence/kWh), standing charge (pence/day), fixed, green, effective from
ENERGY_TARIFFS = [
    ("SVT-E", "Standard Variable Electricity", "ELEC", 24.86, 60.12, 0, 0, "2025-10-01"),
    ("SVT-G", "Standard Variable Gas", "GAS", 6.34, 31.65, 0, 0, "2025-10-01"),
    ("FIX12-E", "Fixed 12M Electricity", "ELEC", 23.40, 58.00, 1, 0, "2025-04-01"),
    ("FIX12-G", "Fixed 12M Gas", "GAS", 6.01, 30.10, 1, 0, "2025-04-01"),
    ("GRN24-E", "Green Fixed 24M Electricity", "ELEC", 25.95, 61.00, 1, 1, "2025-01-01"),
    ("EV-E", "EV Night Saver", "ELEC", 27.10, 59.50, 0, 1, "2025-07-01"),
    ("PPM-E", "Prepay Electricity", "ELEC", 24.20, 57.80, 0, 0, "2025-10-01"),
    ("PPM-G", "Prepay Gas", "GAS", 6.12, 30.80, 0, 0, "2025-10-01"),
]
ENERGY_TOWNS = {"LS": "Leeds", "BD": "Bradford", "HX": "Halifax", "WF": "Wakefield", "HD": "Huddersfield"}
ENERGY_STREETS = ["Mill Lane", "Station Road", "Church Street", "Park Avenue", "Victoria Terrace", "Moor View",
                  "Chapel Fold", "Beck Side", "Albert Road", "Green Lane"]  # fmt: skip
ENERGY_FIRST = ["Aisha", "Brian", "Carol", "Darren", "Esther", "Faisal", "Gemma", "Harry", "Imran", "Joanne", "Keith",
                "Leanne", "Mohammed", "Nicola", "Owen", "Priya", "Ruth", "Stuart", "Tariq", "Wendy"]  # fmt: skip
POSTCODE_UNIT = "ABDEFGHJLNPQRSTUWXYZ"
ENERGY_SURNAMES = ["Ali", "Atkinson", "Barker", "Hussain", "Kaur", "Lister", "Mitchell", "Sutcliffe", "Walker", "Wood"]


def _energy_customers(connection: sqlite3.Connection, rng: random.Random) -> list[tuple]:
    """Tariffs, customers, premises with their meters and accounts; returns (acct_no, premises, tariff, opened)."""
    connection.executemany("INSERT INTO tariff VALUES (?, ?, ?, ?, ?, ?, ?, ?)", ENERGY_TARIFFS)
    for cust_no in range(100001, 100261):
        born = None if rng.random() < 0.15 else rng.randint(1936, 2004)
        surname = rng.choice(ENERGY_SURNAMES)
        connection.execute(
            "INSERT INTO customer VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (cust_no, None if rng.random() < 0.25 else rng.choice(["Mr", "Mrs", "Ms", "Miss", "Dr"]),
             rng.choice(ENERGY_FIRST), surname, born,
             None if rng.random() < 0.2 else f"{surname.lower()}{rng.randint(1, 999)}@example.net",
             int(rng.random() < (0.4 if born and born < 1950 else 0.08)), int(rng.random() < 0.55),
             (date(2012, 1, 1) + timedelta(days=rng.randint(0, 5000))).isoformat()),
        )  # fmt: skip
    accounts = []
    for premises_id in range(1, 241):
        area = rng.choice(list(ENERGY_TOWNS))
        connection.execute(
            "INSERT INTO premises VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (premises_id, f"{rng.randint(1, 140)} {rng.choice(ENERGY_STREETS)}", ENERGY_TOWNS[area],
             f"{area}{rng.randint(1, 29)} {rng.randint(1, 9)}{rng.choice(POSTCODE_UNIT)}{rng.choice(POSTCODE_UNIT)}",
             rng.choices(["TER", "SEM", "DET", "FLT", "BUN"], [35, 25, 12, 20, 8])[0],
             None if rng.random() < 0.2 else rng.choices("ABCDEFG", [2, 8, 25, 35, 18, 8, 4])[0],
             None if rng.random() < 0.25 else rng.choice([1890, 1905, 1930, 1955, 1968, 1975, 1990, 2004, 2015]),
             None if rng.random() < 0.05 else f"1{rng.randint(10**11, 10**12 - 1)}"),
        )  # fmt: skip
        prepay = rng.random() < 0.15
        fuels = ["ELEC", "GAS"] if rng.random() < 0.8 else ["ELEC"]
        for fuel in fuels:
            kind = "PPM" if prepay else rng.choices(["SMETS2", "SMETS1", "TRAD"], [50, 15, 35])[0]
            installed = date(2008, 1, 1) + timedelta(days=rng.randint(0, 6200))
            connection.execute(
                "INSERT INTO meter VALUES (?, ?, ?, ?, ?, ?, ?)",
                (f"{fuel[0]}{rng.randint(10, 99)}K{premises_id * 7717 % 100000:05d}", premises_id, fuel, kind,
                 installed.isoformat(), int(prepay), int(kind != "SMETS1" or rng.random() < 0.4)),
            )  # fmt: skip
            tariff = rng.choice(
                [row[0] for row in ENERGY_TARIFFS if row[2] == fuel and row[0].startswith("PPM") == prepay]
            )
            holder = rng.randint(100001, 100260)
            opened = date(2019, 1, 1) + timedelta(days=rng.randint(0, 2200))
            closed = opened + timedelta(days=rng.randint(200, 900)) if rng.random() < 0.1 else None
            acct_no = f"A{premises_id:04d}{fuel[0]}"
            connection.execute(
                "INSERT INTO account VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (acct_no, holder, rng.randint(100001, 100260) if rng.random() < 0.1 else None, premises_id, tariff,
                 opened.isoformat(), closed.isoformat() if closed and closed < date(2025, 11, 20) else None,
                 int(not prepay and rng.random() < 0.7), round(rng.gauss(-20, 120), 2)),
            )  # fmt: skip
            accounts.append((acct_no, premises_id, tariff, opened))
    return accounts


def _energy_readings(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Monthly readings of about 100 meters over 2025, two registers on economy meters."""
    meters = connection.execute(
        "SELECT m.meter_serial, m.fuel_cd, m.meter_type_cd, a.tariff_cd FROM meter AS m"
        " JOIN account AS a ON a.premises_id = m.premises_id AND substr(a.acct_no, -1) = substr(m.fuel_cd, 1, 1)"
    ).fetchall()
    for serial, fuel, kind, tariff in rng.sample(meters, 100):
        registers = ["DAY", "NGT"] if tariff == "EV-E" else ["STD"]
        totals = {register: rng.uniform(1000, 40000) for register in registers}
        for month in range(1, 12):
            for register in registers:
                used = rng.uniform(80, 400) if fuel == "ELEC" else rng.uniform(2, 40)
                totals[register] += used
                smart = kind in ("SMETS1", "SMETS2")
                estimated = int(not smart and rng.random() < 0.4)
                connection.execute(
                    "INSERT INTO reading VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (serial, date(2025, month, 28).isoformat(), register, round(totals[register], 1),
                     None if month == 1 else round(used * (11.1 if fuel == "GAS" else 1.0), 1),
                     "SMRT" if smart else rng.choice(["CUST", "CUST", "AGNT"]), estimated),
                )  # fmt: skip


def _energy_billing(connection: sqlite3.Connection, rng: random.Random, accounts: list[tuple]) -> None:
    """Quarterly bills of 2025, payments against them and the outages with the premises they cut off."""
    rates = {row[0]: (row[3], row[4]) for row in ENERGY_TARIFFS}
    bill_no = 700000
    for acct_no, _premises, tariff, opened in accounts:
        direct_debit = connection.execute("SELECT dd_flg FROM account WHERE acct_no = ?", (acct_no,)).fetchone()[0]
        for quarter in range(4):
            start = date(2025, 1 + 3 * quarter, 1)
            if start < opened or tariff.startswith("PPM") or start > date(2025, 9, 1):
                continue
            bill_no += 1
            end = date(2025, 3 + 3 * quarter, 28)
            kwh = round(rng.uniform(400, 1400) if tariff.endswith("E") else rng.uniform(1500, 6000), 1)
            net = round(kwh * rates[tariff][0] / 100 + 90 * rates[tariff][1] / 100, 2)
            connection.execute(
                "INSERT INTO bill VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (bill_no, acct_no, start.isoformat(), end.isoformat(), kwh, round(net * 1.05, 2), round(net * 0.05, 2),
                 (end + timedelta(days=rng.randint(2, 9))).isoformat()),
            )  # fmt: skip
            if rng.random() < 0.9:
                connection.execute(
                    "INSERT INTO payment VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (f"PY{bill_no}{rng.randint(10, 99)}", acct_no, bill_no,
                     (end + timedelta(days=rng.randint(10, 30))).isoformat(), round(net * 1.05, 2),
                     "DD" if direct_debit else rng.choice(["CARD", "BANK", "CARD"]), int(rng.random() < 0.03)),
                )  # fmt: skip
    premises = connection.execute("SELECT premises_id, substr(postcode, 1, instr(postcode, ' ') - 1) FROM premises")
    by_district: dict[str, list[int]] = {}
    for premises_id, district in premises:
        by_district.setdefault(district, []).append(premises_id)
    districts = sorted(by_district)
    for outage_id in range(1, 61):
        district = rng.choice(districts)
        planned = int(rng.random() < 0.3)
        start = datetime(2025, 1, 5, 0, 0) + timedelta(minutes=15 * rng.randint(0, 30000))
        minutes = rng.choice([45, 90, 120, 180, 240, 480, 900])
        ongoing = start > datetime(2025, 11, 20)
        hit = rng.sample(by_district[district], min(len(by_district[district]), rng.randint(1, 4)))
        connection.execute(
            "INSERT INTO outage VALUES (?, ?, ?, ?, ?, ?, ?)",
            (outage_id, district, start.isoformat(sep=" ", timespec="minutes"),
             None if ongoing else (start + timedelta(minutes=minutes)).isoformat(sep=" ", timespec="minutes"),
             "MNT" if planned else rng.choice(["CBL", "STM", "EQP", "THD", "UNK"]), planned,
             len(hit) * rng.randint(20, 200)),
        )  # fmt: skip
        for premises_id in hit:
            late = None if ongoing else start + timedelta(minutes=minutes + rng.choice([0, 0, 30, 600]))
            connection.execute(
                "INSERT INTO outage_premises VALUES (?, ?, ?, ?)",
                (outage_id, premises_id, late.isoformat(sep=" ", timespec="minutes") if late else None,
                 30.0 if late and late - start > timedelta(hours=12) else None),
            )  # fmt: skip


def build_energy_database(path: str | Path, seed: int = 35) -> Path:
    """Write the energy utility database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, ENERGY_SCHEMA, seed) as (connection, rng):
        accounts = _energy_customers(connection, rng)
        _energy_readings(connection, rng)
        _energy_billing(connection, rng, accounts)
    return Path(path)


TELECOM_SCHEMA = """
CREATE TABLE plan (
    plan_cd TEXT PRIMARY KEY,
    plan_nm TEXT NOT NULL,
    monthly_amt REAL NOT NULL,
    data_gb INTEGER,
    mins_incl INTEGER,
    term_mths INTEGER NOT NULL,
    biz_flg INTEGER NOT NULL,
    sellable_flg INTEGER NOT NULL
);
CREATE TABLE bolt_on (
    bolt_cd TEXT PRIMARY KEY,
    bolt_nm TEXT NOT NULL,
    monthly_amt REAL NOT NULL,
    roam_flg INTEGER NOT NULL
);
CREATE TABLE subscriber (
    sub_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    dob_dt TEXT,
    postcode TEXT NOT NULL,
    seg_cd TEXT NOT NULL,
    credit_score INTEGER,
    join_dt TEXT NOT NULL,
    mkt_opt_in_flg INTEGER NOT NULL
);
CREATE TABLE device (
    imei TEXT PRIMARY KEY,
    make_nm TEXT NOT NULL,
    model_nm TEXT NOT NULL,
    os_cd TEXT NOT NULL,
    rrp_amt REAL NOT NULL,
    esim_flg INTEGER NOT NULL
);
CREATE TABLE contract (
    contract_no TEXT PRIMARY KEY,
    sub_id INTEGER NOT NULL REFERENCES subscriber (sub_id),
    bill_sub_id INTEGER NOT NULL REFERENCES subscriber (sub_id),
    plan_cd TEXT NOT NULL REFERENCES plan (plan_cd),
    msisdn TEXT NOT NULL,
    imei TEXT REFERENCES device (imei),
    start_dt TEXT NOT NULL,
    end_dt TEXT,
    status_cd TEXT NOT NULL,
    chan_cd TEXT NOT NULL
);
CREATE TABLE contract_bolt_on (
    contract_no TEXT NOT NULL REFERENCES contract (contract_no),
    bolt_cd TEXT NOT NULL REFERENCES bolt_on (bolt_cd),
    added_dt TEXT NOT NULL,
    PRIMARY KEY (contract_no, bolt_cd)
);
CREATE TABLE cell_site (
    cell_id INTEGER PRIMARY KEY,
    site_nm TEXT NOT NULL,
    region_cd TEXT NOT NULL,
    tech_cd TEXT NOT NULL,
    sector_no INTEGER NOT NULL,
    install_yr INTEGER,
    shared_flg INTEGER NOT NULL
);
CREATE TABLE usage_rec (
    rec_id INTEGER PRIMARY KEY,
    contract_no TEXT NOT NULL REFERENCES contract (contract_no),
    start_ts TEXT NOT NULL,
    type_cd TEXT NOT NULL,
    dur_sec INTEGER,
    vol_mb REAL,
    start_cell_id INTEGER NOT NULL REFERENCES cell_site (cell_id),
    end_cell_id INTEGER REFERENCES cell_site (cell_id),
    dest_op_cd TEXT,
    roam_flg INTEGER NOT NULL,
    chg_amt REAL NOT NULL
);
CREATE TABLE invoice (
    inv_no TEXT PRIMARY KEY,
    contract_no TEXT NOT NULL REFERENCES contract (contract_no),
    period_cd TEXT NOT NULL,
    issue_dt TEXT NOT NULL,
    net_amt REAL NOT NULL,
    vat_amt REAL NOT NULL,
    paid_dt TEXT,
    dd_flg INTEGER NOT NULL
);
CREATE TABLE port_req (
    req_id INTEGER PRIMARY KEY,
    contract_no TEXT NOT NULL REFERENCES contract (contract_no),
    dir_cd TEXT NOT NULL,
    other_op_cd TEXT NOT NULL,
    pac_cd TEXT NOT NULL,
    req_dt TEXT NOT NULL,
    port_dt TEXT,
    status_cd TEXT NOT NULL
);
"""

TEL_PLANS = [
    ("SIMO5", "SIM Only 5GB", 8.0, 5, 500, 1, 0, 1),
    ("SIMO30", "SIM Only 30GB", 12.0, 30, None, 12, 0, 1),
    ("SIMOU", "SIM Only Unlimited", 22.0, None, None, 24, 0, 1),
    ("HS50", "Handset 50GB", 34.0, 50, None, 24, 0, 1),
    ("HSU", "Handset Unlimited", 45.0, None, None, 36, 0, 1),
    ("BIZ20", "Business 20GB", 18.0, 20, None, 24, 1, 1),
    ("BIZU", "Business Unlimited", 30.0, None, None, 24, 1, 1),
    ("LEG10", "Classic 10GB", 15.0, 10, 1000, 24, 0, 0),
    ("PAYM2", "Starter 2GB", 6.0, 2, 250, 1, 0, 0),
]
TEL_BOLT_ONS = [
    ("EUR", "Europe Roaming Pass", 2.0, 1),
    ("WRLD", "Worldwide Roaming", 10.0, 1),
    ("INTL", "International Minutes", 5.0, 0),
    ("DATA5", "Extra 5GB", 4.0, 0),
    ("INS", "Device Insurance", 9.0, 0),
    ("MUSIC", "Music Streaming", 7.0, 0),
]
TEL_DEVICES = [
    ("Apple", "iPhone 15", "IOS", 799.0, 1), ("Apple", "iPhone 14", "IOS", 699.0, 1),
    ("Apple", "iPhone SE", "IOS", 429.0, 1), ("Samsung", "Galaxy S24", "AND", 799.0, 1),
    ("Samsung", "Galaxy A54", "AND", 349.0, 0), ("Google", "Pixel 8", "AND", 699.0, 1),
    ("Motorola", "moto g84", "AND", 249.0, 0), ("Nokia", "G22", "AND", 149.0, 0), ("Doro", "8100", "AND", 179.0, 0),
]  # fmt: skip
TEL_FIRST = ["Aisha", "Callum", "Chloe", "Daniel", "Emma", "Harry", "Jack", "Lily", "Mohammed", "Olivia", "Priya",
             "Ryan", "Sophie", "Tom", "Zara"]  # fmt: skip
TEL_LAST = ["Ahmed", "Brown", "Clarke", "Davies", "Evans", "Hughes", "Jones", "Patel", "Roberts", "Smith", "Taylor",
            "Walker", "Wilson", "Wright"]  # fmt: skip
TEL_SITES = ["Castle Hill", "Dockside", "Ring Road North", "Station Approach", "Hospital", "Retail Park", "Quarry Lane",
             "Water Tower", "Church Street", "Stadium", "Business Park", "Airport Road"]  # fmt: skip
TEL_OPERATORS = ["EE", "O2", "VOD", "3UK", "GG", "SKY", "TESCO"]


def _telecom_subscribers(connection: sqlite3.Connection, rng: random.Random) -> list[str]:
    """Plans, bolt-ons, cell sites, subscribers, devices and about 300 contracts; returns the contract numbers."""
    connection.executemany("INSERT INTO plan VALUES (?, ?, ?, ?, ?, ?, ?, ?)", TEL_PLANS)
    connection.executemany("INSERT INTO bolt_on VALUES (?, ?, ?, ?)", TEL_BOLT_ONS)
    for cell_id in range(1, 37):
        connection.execute(
            "INSERT INTO cell_site VALUES (?, ?, ?, ?, ?, ?, ?)",
            (cell_id, TEL_SITES[(cell_id - 1) // 3], rng.choice(["NE", "NW", "YH"]), rng.choice(["4G", "4G", "5G"]),
             (cell_id - 1) % 3 + 1, None if rng.random() < 0.15 else rng.randint(2008, 2024), int(rng.random() < 0.3)),
        )  # fmt: skip
    for sub_id in range(1, 231):
        joined = date(2016, 3, 1) + timedelta(days=rng.randint(0, 3100))
        born = None if rng.random() < 0.1 else date(1950, 1, 1) + timedelta(days=rng.randint(0, 19000))
        connection.execute(
            "INSERT INTO subscriber VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (sub_id, rng.choice(TEL_FIRST), rng.choice(TEL_LAST), born.isoformat() if born else None,
             f"{rng.choice(['LS', 'NE', 'YO', 'HG'])}{rng.randint(1, 28)} {rng.randint(1, 9)}{rng.choice('ABDEHJNP')}"
             f"{rng.choice('LQRSTUWX')}", rng.choices(["CON", "SOHO", "ENT"], [80, 14, 6])[0],
             None if rng.random() < 0.2 else rng.randint(300, 999), joined.isoformat(), int(rng.random() < 0.4)),
        )  # fmt: skip
    imeis = []
    for make, model, os_cd, rrp, esim in TEL_DEVICES:
        for _ in range(rng.randint(14, 30)):
            imei = f"35{rng.randint(10**12, 10**13 - 1)}"
            connection.execute("INSERT INTO device VALUES (?, ?, ?, ?, ?, ?)", (imei, make, model, os_cd, rrp, esim))
            imeis.append(imei)
    rng.shuffle(imeis)
    contracts = []
    for number in range(1, 301):
        sub_id = rng.randint(1, 230)
        plan = rng.choice(TEL_PLANS)
        start = date(2021, 1, 4) + timedelta(days=rng.randint(0, 1400))
        ended = rng.random() < 0.2
        imei = imeis.pop() if imeis and (plan[0].startswith("HS") or rng.random() < 0.2) else None
        contract_no = f"C{700000 + number * 37}"
        connection.execute(
            "INSERT INTO contract VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (contract_no, sub_id, sub_id if rng.random() < 0.85 else rng.randint(1, 230), plan[0],
             f"07{rng.randint(100000000, 999999999)}", imei, start.isoformat(),
             (start + timedelta(days=rng.randint(60, 900))).isoformat() if ended else None,
             "CLS" if ended else rng.choices(["ACT", "SUS"], [95, 5])[0], rng.choice(["WEB", "WEB", "STR", "TEL"])),
        )  # fmt: skip
        for code in rng.sample([row[0] for row in TEL_BOLT_ONS], rng.choices([0, 1, 2], [60, 30, 10])[0]):
            connection.execute(
                "INSERT INTO contract_bolt_on VALUES (?, ?, ?)",
                (contract_no, code, (start + timedelta(days=rng.randint(0, 300))).isoformat()),
            )
        contracts.append(contract_no)
    return contracts


def _telecom_usage(connection: sqlite3.Connection, rng: random.Random, contracts: list[str]) -> None:
    """About 1,500 usage records, monthly invoices for 2025 and some number ports."""
    for _ in range(1500):
        kind = rng.choices(["VOI", "SMS", "DAT"], [40, 25, 35])[0]
        start_cell = rng.randint(1, 36)
        roaming = int(rng.random() < 0.05)
        when = datetime(2025, 9, 1) + timedelta(minutes=rng.randint(0, 60 * 24 * 90))
        connection.execute(
            "INSERT INTO usage_rec (contract_no, start_ts, type_cd, dur_sec, vol_mb, start_cell_id, end_cell_id,"
            " dest_op_cd, roam_flg, chg_amt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (rng.choice(contracts), when.isoformat(sep=" ", timespec="seconds"), kind,
             rng.randint(5, 2400) if kind == "VOI" else (rng.randint(60, 7200) if kind == "DAT" else None),
             round(rng.uniform(0.1, 900.0), 1) if kind == "DAT" else None, start_cell,
             (start_cell if rng.random() < 0.7 else rng.randint(1, 36)) if kind != "SMS" else None,
             rng.choice(TEL_OPERATORS) if kind != "DAT" else None, roaming,
             round(rng.choice([0.0, 0.0, 0.0, 0.55, 1.2, 2.5]) * (3 if roaming else 1), 2)),
        )  # fmt: skip
    rows = list(
        connection.execute("SELECT contract_no, monthly_amt, start_dt, end_dt FROM contract JOIN plan USING (plan_cd)")
    )
    for contract_no, monthly, start, end in rows:
        for month in range(1, 12):
            period = f"2025-{month:02d}"
            if start[:7] > period or (end and end[:7] < period):
                continue
            issued = date(2025, month, 3)
            net = round(monthly + rng.choice([0.0, 0.0, 0.0, 2.0, 4.0, 12.5]), 2)
            late = rng.random() < 0.08
            connection.execute(
                "INSERT INTO invoice VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (f"INV{month:02d}{contract_no[1:]}", contract_no, period, issued.isoformat(), net, round(net * 0.2, 2),
                 None if late else (issued + timedelta(days=rng.randint(1, 20))).isoformat(), int(rng.random() < 0.75)),
            )  # fmt: skip
    for contract_no in rng.sample(contracts, 45):
        asked = date(2021, 1, 4) + timedelta(days=rng.randint(0, 1600))
        status = rng.choices(["DONE", "CNL", "FAIL"], [80, 12, 8])[0]
        connection.execute(
            "INSERT INTO port_req (contract_no, dir_cd, other_op_cd, pac_cd, req_dt, port_dt, status_cd)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (contract_no, rng.choice(["IN", "IN", "OUT"]), rng.choice(TEL_OPERATORS[1:]),
             f"{rng.choice('ABCDEFGHJK')}{rng.choice('LMNPQRSTUV')}{rng.choice('WXYZ')}{rng.randint(100000, 999999)}",
             asked.isoformat(), (asked + timedelta(days=1)).isoformat() if status == "DONE" else None, status),
        )  # fmt: skip


def build_telecom_database(path: str | Path, seed: int = 35) -> Path:
    """Write the mobile operator database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, TELECOM_SCHEMA, seed) as (connection, rng):
        _telecom_usage(connection, rng, _telecom_subscribers(connection, rng))
    return Path(path)


FARM_SCHEMA = """
CREATE TABLE member (
    member_no INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    farm_nm TEXT NOT NULL,
    parish_nm TEXT NOT NULL,
    join_dt TEXT NOT NULL,
    share_qty INTEGER NOT NULL,
    organic_flg INTEGER NOT NULL,
    proposer_no INTEGER REFERENCES member (member_no),
    seconder_no INTEGER REFERENCES member (member_no)
);
CREATE TABLE field (
    member_no INTEGER NOT NULL REFERENCES member (member_no),
    field_no INTEGER NOT NULL,
    field_nm TEXT NOT NULL,
    area_ha REAL NOT NULL,
    soil_cd TEXT NOT NULL,
    irrig_flg INTEGER NOT NULL,
    PRIMARY KEY (member_no, field_no)
);
CREATE TABLE crop (
    crop_cd TEXT PRIMARY KEY,
    crop_nm TEXT NOT NULL,
    family_nm TEXT NOT NULL,
    perennial_flg INTEGER NOT NULL,
    base_price_kg REAL NOT NULL
);
CREATE TABLE planting (
    planting_id INTEGER PRIMARY KEY,
    member_no INTEGER NOT NULL,
    field_no INTEGER NOT NULL,
    crop_cd TEXT NOT NULL REFERENCES crop (crop_cd),
    season_yr INTEGER NOT NULL,
    variety_nm TEXT,
    sown_dt TEXT NOT NULL,
    sown_ha REAL NOT NULL,
    FOREIGN KEY (member_no, field_no) REFERENCES field (member_no, field_no)
);
CREATE TABLE harvest (
    planting_id INTEGER NOT NULL REFERENCES planting (planting_id),
    harvest_dt TEXT NOT NULL,
    yield_kg REAL NOT NULL,
    PRIMARY KEY (planting_id, harvest_dt)
);
CREATE TABLE depot (
    depot_cd TEXT PRIMARY KEY,
    depot_nm TEXT NOT NULL,
    town_nm TEXT NOT NULL,
    cold_store_flg INTEGER NOT NULL
);
CREATE TABLE delivery (
    docket_no INTEGER PRIMARY KEY,
    member_no INTEGER NOT NULL REFERENCES member (member_no),
    crop_cd TEXT NOT NULL REFERENCES crop (crop_cd),
    depot_cd TEXT NOT NULL REFERENCES depot (depot_cd),
    dlv_dt TEXT NOT NULL,
    net_kg REAL NOT NULL,
    grade_cd TEXT NOT NULL,
    moist_pct REAL,
    rejected_flg INTEGER NOT NULL
);
CREATE TABLE buyer (
    buyer_id INTEGER PRIMARY KEY,
    buyer_nm TEXT NOT NULL,
    type_cd TEXT NOT NULL,
    town_nm TEXT NOT NULL,
    vat_no TEXT,
    terms_days INTEGER NOT NULL
);
CREATE TABLE sale (
    sale_no INTEGER PRIMARY KEY,
    buyer_id INTEGER NOT NULL REFERENCES buyer (buyer_id),
    crop_cd TEXT NOT NULL REFERENCES crop (crop_cd),
    depot_cd TEXT NOT NULL REFERENCES depot (depot_cd),
    sale_dt TEXT NOT NULL,
    qty_kg REAL NOT NULL,
    price_kg REAL NOT NULL,
    grade_cd TEXT NOT NULL
);
CREATE TABLE payment (
    member_no INTEGER NOT NULL REFERENCES member (member_no),
    period_cd TEXT NOT NULL,
    pay_dt TEXT NOT NULL,
    gross_amt REAL NOT NULL,
    levy_amt REAL NOT NULL,
    method_cd TEXT NOT NULL,
    PRIMARY KEY (member_no, period_cd)
);
"""

FARM_FIRST = ["Alan", "Bridget", "Colin", "Dafydd", "Elin", "Gareth", "Gwen", "Huw", "Ifan", "Jane", "Meinir", "Rhys",
              "Sian", "Tom"]  # fmt: skip
FARM_LAST = ["Davies", "Edwards", "Evans", "Griffiths", "Hughes", "Jones", "Lewis", "Morgan", "Owen", "Parry",
             "Price", "Thomas", "Williams"]  # fmt: skip
FARM_PLACES = ["Llanfair", "Pentre", "Bryn", "Cwm", "Glan", "Maes", "Pen-y-bont", "Tyn"]
FARM_SUFFIX = ["Farm", "Uchaf", "Isaf", "Fawr", "Bach", "Mill Farm"]
FARM_PARISHES = ["Llanarth", "Llandysul", "Aberaeron", "Cardigan", "Tregaron", "Lampeter"]
FARM_FIELDS = ["Cae Mawr", "Top Field", "Long Meadow", "Cae Bach", "Bottom Field", "Orchard", "Cae Newydd",
               "River Field", "Quarry Field", "Home Paddock"]  # fmt: skip
FARM_CROPS = [
    ("POT", "Potatoes", "Solanaceae", 0, 0.28, ["Maris Piper", "Charlotte", "Cara"]),
    ("CAR", "Carrots", "Apiaceae", 0, 0.45, ["Nantes", "Autumn King"]),
    ("LEEK", "Leeks", "Amaryllidaceae", 0, 1.10, ["Musselburgh", None]),
    ("CAB", "Cabbage", "Brassicaceae", 0, 0.55, ["January King", "Savoy", None]),
    ("SWD", "Swede", "Brassicaceae", 0, 0.35, [None]),
    ("OATS", "Oats", "Poaceae", 0, 0.21, ["Mascani", "Gerald"]),
    ("BAR", "Spring barley", "Poaceae", 0, 0.19, ["Laureate", "Planet"]),
    ("STR", "Strawberries", "Rosaceae", 1, 3.20, ["Elsanta", "Malling Centenary"]),
    ("APL", "Apples", "Rosaceae", 1, 0.95, ["Bramley", "Cox", None]),
]
FARM_DEPOTS = [("LBR", "Lampeter Grain Store", "Lampeter", 0), ("ABR", "Aberaeron Packhouse", "Aberaeron", 1),
               ("CDG", "Cardigan Cold Store", "Cardigan", 1)]  # fmt: skip
FARM_BUYERS = [("Tesco Stores Ltd", "RET", "Cardiff"), ("Castell Howell Foods", "WHL", "Cross Hands"),
               ("Puffin Produce", "PKR", "Haverfordwest"), ("Ceredigion County Council", "PUB", "Aberaeron"),
               ("Harbourside Café", "CAT", "New Quay"), ("Morgan's Farm Shop", "RET", "Lampeter"),
               ("Wessex Grain", "WHL", "Frome"), ("Fferm Ffres", "RET", "Aberystwyth"),
               ("Puffin Produce", "PKR", "Carmarthen"), ("Welsh Oats Mill", "PRC", "Tregaron")]  # fmt: skip


def _farm_members(connection: sqlite3.Connection, rng: random.Random) -> list[tuple[int, int]]:
    """Crops, depots, buyers, 70 members and their fields; returns the fields' (member, field) keys."""
    connection.executemany("INSERT INTO crop VALUES (?, ?, ?, ?, ?)", [row[:5] for row in FARM_CROPS])
    connection.executemany("INSERT INTO depot VALUES (?, ?, ?, ?)", FARM_DEPOTS)
    for buyer_id, (name, kind, town) in enumerate(FARM_BUYERS, start=1):
        connection.execute(
            "INSERT INTO buyer VALUES (?, ?, ?, ?, ?, ?)",
            (buyer_id, name, kind, town, None if kind in ("PUB", "CAT") else f"GB{rng.randint(100000000, 999999999)}",
             rng.choice([14, 30, 30, 60])),
        )  # fmt: skip
    fields = []
    for member_no in range(1, 71):
        founder = member_no <= 8
        connection.execute(
            "INSERT INTO member VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (member_no, rng.choice(FARM_FIRST), rng.choice(FARM_LAST),
             f"{rng.choice(FARM_PLACES)} {rng.choice(FARM_SUFFIX)}", rng.choice(FARM_PARISHES),
             (date(1998, 4, 1) + timedelta(days=(member_no - 1) * 140 + rng.randint(0, 100))).isoformat(),
             rng.choice([1, 1, 5, 10, 25]), int(rng.random() < 0.3),
             None if founder else rng.randint(1, member_no - 1), None if founder else rng.randint(1, member_no - 1)),
        )  # fmt: skip
        for field_no in range(1, rng.randint(2, 6)):
            connection.execute(
                "INSERT INTO field VALUES (?, ?, ?, ?, ?, ?)",
                (member_no, field_no, rng.choice(FARM_FIELDS), round(rng.uniform(0.8, 14.0), 1),
                 rng.choice(["LOAM", "CLAY", "SAND", "PEAT"]), int(rng.random() < 0.2)),
            )  # fmt: skip
            fields.append((member_no, field_no))
    return fields


def _farm_growing(connection: sqlite3.Connection, rng: random.Random, fields: list[tuple[int, int]]) -> None:
    """Plantings over three seasons with their harvests, and the deliveries they made to the depots."""
    areas = dict(
        ((row[0], row[1]), row[2]) for row in connection.execute("SELECT member_no, field_no, area_ha FROM field")
    )
    for season in (2023, 2024, 2025):
        for member_no, field_no in rng.sample(fields, len(fields) * 2 // 3):
            code, _name, _family, perennial, _price, varieties = rng.choice(FARM_CROPS)
            sown = date(season, 3, 1) + timedelta(days=rng.randint(0, 75))
            area = areas[(member_no, field_no)]
            cursor = connection.execute(
                "INSERT INTO planting (member_no, field_no, crop_cd, season_yr, variety_nm, sown_dt, sown_ha)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (member_no, field_no, code, season, rng.choice(varieties), sown.isoformat(),
                 area if rng.random() < 0.7 else round(area * rng.uniform(0.3, 0.9), 1)),
            )  # fmt: skip
            for pick in range(rng.choice([1, 1, 2, 3]) if not perennial else rng.randint(2, 4)):
                cut = sown + timedelta(days=90 + pick * 21 + rng.randint(0, 20))
                yield_kg = round(area * rng.uniform(800, 9000) / (pick + 1), 0)
                connection.execute(
                    "INSERT INTO harvest VALUES (?, ?, ?)", (cursor.lastrowid, cut.isoformat(), yield_kg)
                )
                if rng.random() < 0.8:
                    connection.execute(
                        "INSERT INTO delivery (member_no, crop_cd, depot_cd, dlv_dt, net_kg, grade_cd, moist_pct,"
                        " rejected_flg) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (member_no, code, rng.choice(FARM_DEPOTS)[0],
                         (cut + timedelta(days=rng.randint(0, 4))).isoformat(),
                         round(yield_kg * rng.uniform(0.6, 0.98), 0), rng.choices(["1", "2", "OG"], [60, 30, 10])[0],
                         round(rng.uniform(12.0, 19.5), 1) if code in ("OATS", "BAR") else None,
                         int(rng.random() < 0.04)),
                    )  # fmt: skip


def _farm_money(connection: sqlite3.Connection, rng: random.Random) -> None:
    """About 400 sales to the buyers and the members' quarterly payments from the deliveries they made."""
    prices = {row[0]: row[4] for row in FARM_CROPS}
    for _ in range(400):
        code = rng.choice(FARM_CROPS)[0]
        day = date(2023, 7, 1) + timedelta(days=rng.randint(0, 900))
        grade = rng.choices(["1", "2", "OG"], [60, 30, 10])[0]
        connection.execute(
            "INSERT INTO sale (buyer_id, crop_cd, depot_cd, sale_dt, qty_kg, price_kg, grade_cd)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (rng.randint(1, len(FARM_BUYERS)), code, rng.choice(FARM_DEPOTS)[0], day.isoformat(),
             rng.choice([250.0, 500.0, 1000.0, 2000.0, 5000.0, 10000.0]),
             round(prices[code] * rng.uniform(0.85, 1.3) * (0.8 if grade == "2" else 1.0), 2), grade),
        )  # fmt: skip
    quarters = connection.execute(
        "SELECT d.member_no, substr(d.dlv_dt, 1, 4) || '-Q' || ((cast(substr(d.dlv_dt, 6, 2) AS INTEGER) + 2) / 3),"
        " sum(d.net_kg * c.base_price_kg) FROM delivery d JOIN crop c ON c.crop_cd = d.crop_cd"
        " WHERE d.rejected_flg = 0 GROUP BY 1, 2"
    ).fetchall()
    for member_no, period, gross in quarters:
        year, quarter = int(period[:4]), int(period[-1])
        paid = date(year, quarter * 3, 28) + timedelta(days=rng.randint(5, 40))
        connection.execute(
            "INSERT INTO payment VALUES (?, ?, ?, ?, ?, ?)",
            (member_no, period, paid.isoformat(), round(gross, 2), round(gross * 0.025, 2),
             rng.choice(["BACS", "BACS", "BACS", "CHQ"])),
        )  # fmt: skip


def build_farm_database(path: str | Path, seed: int = 35) -> Path:
    """Write the farm co-operative database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, FARM_SCHEMA, seed) as (connection, rng):
        _farm_growing(connection, rng, _farm_members(connection, rng))
        _farm_money(connection, rng)
    return Path(path)


ESTATE_SCHEMA = """
CREATE TABLE branch (
    branch_cd TEXT PRIMARY KEY,
    branch_nm TEXT NOT NULL,
    town_nm TEXT NOT NULL,
    open_yr INTEGER,
    franchised INTEGER NOT NULL
);
CREATE TABLE agent (
    agent_id INTEGER PRIMARY KEY,
    branch_cd TEXT NOT NULL REFERENCES branch (branch_cd),
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    grade_cd TEXT NOT NULL,
    start_dt TEXT NOT NULL,
    comm_pct REAL NOT NULL,
    trainee INTEGER NOT NULL,
    arla_qualified INTEGER NOT NULL
);
CREATE TABLE landlord (
    landlord_id INTEGER PRIMARY KEY,
    title TEXT,
    first_nm TEXT NOT NULL,
    surname TEXT NOT NULL,
    company_nm TEXT,
    phone_no TEXT,
    overseas INTEGER NOT NULL,
    reg_dt TEXT NOT NULL
);
CREATE TABLE property (
    prop_ref TEXT PRIMARY KEY,
    landlord_id INTEGER NOT NULL REFERENCES landlord (landlord_id),
    branch_cd TEXT NOT NULL REFERENCES branch (branch_cd),
    addr_line1 TEXT NOT NULL,
    town_nm TEXT NOT NULL,
    postcode TEXT NOT NULL,
    prop_type_cd TEXT NOT NULL,
    bed_cnt INTEGER NOT NULL,
    bath_cnt INTEGER NOT NULL,
    floor_sqm REAL,
    rent_pcm REAL NOT NULL,
    furnished INTEGER NOT NULL,
    garden INTEGER NOT NULL,
    epc_band TEXT,
    listed_dt TEXT NOT NULL
);
CREATE TABLE applicant (
    applicant_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    surname TEXT NOT NULL,
    email_addr TEXT,
    max_rent_amt REAL NOT NULL,
    min_beds INTEGER NOT NULL,
    student INTEGER NOT NULL,
    pets INTEGER NOT NULL,
    reg_dt TEXT NOT NULL
);
CREATE TABLE viewing (
    viewing_id INTEGER PRIMARY KEY,
    prop_ref TEXT NOT NULL REFERENCES property (prop_ref),
    applicant_id INTEGER NOT NULL REFERENCES applicant (applicant_id),
    agent_id INTEGER REFERENCES agent (agent_id),
    viewing_dt TEXT NOT NULL,
    slot_no INTEGER NOT NULL,
    outcome_cd TEXT NOT NULL,
    virtual INTEGER NOT NULL
);
CREATE TABLE offer (
    prop_ref TEXT NOT NULL REFERENCES property (prop_ref),
    applicant_id INTEGER NOT NULL REFERENCES applicant (applicant_id),
    offer_dt TEXT NOT NULL,
    offer_amt REAL NOT NULL,
    status_cd TEXT NOT NULL,
    conditional INTEGER NOT NULL,
    PRIMARY KEY (prop_ref, applicant_id, offer_dt)
);
CREATE TABLE tenancy (
    tenancy_no INTEGER PRIMARY KEY,
    prop_ref TEXT NOT NULL REFERENCES property (prop_ref),
    let_agent_id INTEGER NOT NULL REFERENCES agent (agent_id),
    mgr_agent_id INTEGER REFERENCES agent (agent_id),
    start_dt TEXT NOT NULL,
    end_dt TEXT,
    rent_amt REAL NOT NULL,
    deposit_amt REAL NOT NULL,
    term_mths INTEGER NOT NULL,
    periodic INTEGER NOT NULL,
    guarantor INTEGER NOT NULL
);
CREATE TABLE tenancy_tenant (
    tenancy_no INTEGER NOT NULL REFERENCES tenancy (tenancy_no),
    applicant_id INTEGER NOT NULL REFERENCES applicant (applicant_id),
    lead_tenant INTEGER NOT NULL,
    PRIMARY KEY (tenancy_no, applicant_id)
);
"""

ESTATE_BRANCHES = [
    ("CLF", "Clifton Lettings", "Bristol", 2004, 0),
    ("BED", "Bedminster Homes", "Bristol", 2011, 1),
    ("BTH", "Bath Central", "Bath", None, 0),
    ("WSM", "Weston Lets", "Weston-super-Mare", 2016, 1),
]
ESTATE_STREETS = ["Whiteladies Road", "North Street", "Gloucester Road", "Cotham Hill", "Stokes Croft",
                  "Park Row", "Walcot Street", "Milsom Street", "Beach Road", "Grove Park", "Cheltenham Road",
                  "Coronation Road"]  # fmt: skip
ESTATE_FIRST = ["Amy", "Ben", "Callum", "Demi", "Ethan", "Freya", "George", "Holly", "Isaac", "Jade", "Kieran",
                "Lucy", "Marcus", "Niamh", "Oliver", "Poppy", "Reece", "Sophie", "Tyler", "Zara"]  # fmt: skip
ESTATE_LAST = ["Adams", "Baker", "Clarke", "Davies", "Evans", "Fletcher", "Green", "Harris", "Iqbal", "James",
               "Kelly", "Lewis", "Morgan", "Nash", "Owen", "Patel", "Roberts", "Turner", "Ward", "Young"]  # fmt: skip
ESTATE_COMPANIES = [
    "Avon Property Holdings Ltd",
    "Redcliffe Estates Ltd",
    "Harbourside Lettings LLP",
    "Severn Homes Ltd",
]
ESTATE_POSTCODES = {"Bristol": "BS", "Bath": "BA", "Weston-super-Mare": "BS"}


def _estate_people(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Branches, agents, landlords with their properties, and applicants."""
    connection.executemany("INSERT INTO branch VALUES (?, ?, ?, ?, ?)", ESTATE_BRANCHES)
    for agent_id in range(1, 23):
        grade = rng.choices(["NEG", "SNR", "MGR", "PM"], [9, 5, 2, 4])[0]
        trainee = int(grade == "NEG" and rng.random() < 0.4)
        connection.execute(
            "INSERT INTO agent VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (agent_id, ESTATE_BRANCHES[agent_id % 4][0], rng.choice(ESTATE_FIRST), rng.choice(ESTATE_LAST), grade,
             (date(2012, 6, 1) + timedelta(days=rng.randint(0, 4700))).isoformat(),
             rng.choice([0.5, 1.0, 1.0, 1.5, 2.0]) if not trainee else 0.0, trainee,
             int(not trainee and rng.random() < 0.5)),
        )  # fmt: skip
    for landlord_id in range(1, 91):
        company = rng.choice(ESTATE_COMPANIES) if rng.random() < 0.15 else None
        connection.execute(
            "INSERT INTO landlord VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (landlord_id, None if rng.random() < 0.3 else rng.choice(["Mr", "Mrs", "Ms", "Dr"]),
             rng.choice(ESTATE_FIRST), rng.choice(ESTATE_LAST), company,
             None if rng.random() < 0.12 else f"07{rng.randint(100000000, 999999999)}", int(rng.random() < 0.12),
             (date(2010, 1, 4) + timedelta(days=rng.randint(0, 5600))).isoformat()),
        )  # fmt: skip
    for number in range(1, 211):
        code, _name, town, *_rest = rng.choices(ESTATE_BRANCHES, [40, 30, 20, 10])[0]
        kind = rng.choices(["FLT", "TER", "SEM", "DET", "BNG", "HMO"], [40, 25, 15, 6, 4, 10])[0]
        beds = {"FLT": rng.randint(1, 3), "HMO": rng.randint(4, 7), "BNG": rng.randint(2, 3)}.get(
            kind, rng.randint(2, 5)
        )
        connection.execute(
            "INSERT INTO property VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (f"{code}{10000 + number * 37}", rng.randint(1, 90), code,
             f"{rng.randint(1, 180)} {rng.choice(ESTATE_STREETS)}", town,
             f"{ESTATE_POSTCODES[town]}{rng.randint(1, 16)} {rng.randint(1, 9)}{rng.choice('ABDEHJLNPQRSTUWXY')}"
             f"{rng.choice('ABDEHJLNPQRSTUWXY')}",
             kind, beds, 1 if beds < 3 else rng.randint(1, 3),
             None if rng.random() < 0.25 else round(beds * rng.uniform(18, 32), 1),
             round(beds * rng.uniform(420, 700) / 25) * 25, int(rng.random() < 0.45),
             int(kind != "FLT" and rng.random() < 0.7),
             None if rng.random() < 0.1 else rng.choices("ABCDEFG", [2, 10, 35, 35, 12, 4, 2])[0],
             (date(2024, 1, 8) + timedelta(days=rng.randint(0, 680))).isoformat()),
        )  # fmt: skip
    for applicant_id in range(1, 161):
        surname = rng.choice(ESTATE_LAST)
        student = int(rng.random() < 0.25)
        connection.execute(
            "INSERT INTO applicant VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (applicant_id, rng.choice(ESTATE_FIRST), surname,
             None if rng.random() < 0.15 else f"{surname.lower()}{rng.randint(1, 99)}@example.com",
             rng.choice([800, 950, 1100, 1250, 1400, 1600, 1850, 2200]), rng.randint(1, 4 if not student else 6),
             student, int(rng.random() < 0.2), (date(2024, 1, 2) + timedelta(days=rng.randint(0, 680))).isoformat()),
        )  # fmt: skip


def _estate_lettings(connection: sqlite3.Connection, rng: random.Random) -> None:
    """About 600 viewings, the offers that followed, and the tenancies with their tenants."""
    properties = connection.execute("SELECT prop_ref, branch_cd, rent_pcm, listed_dt FROM property").fetchall()
    agents: dict[str, list[int]] = {}
    for agent_id, branch in connection.execute("SELECT agent_id, branch_cd FROM agent"):
        agents.setdefault(branch, []).append(agent_id)
    offered = []
    for viewing_id in range(1, 601):
        prop_ref, branch, rent, listed = rng.choice(properties)
        applicant_id = rng.randint(1, 160)
        day = date.fromisoformat(listed) + timedelta(days=rng.randint(1, 40))
        outcome = rng.choices(["INT", "DEC", "OFR", "NSH", "CNL"], [30, 35, 15, 8, 12])[0]
        virtual = int(rng.random() < 0.15)
        connection.execute(
            "INSERT INTO viewing VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (viewing_id, prop_ref, applicant_id, None if virtual and rng.random() < 0.5 else rng.choice(agents[branch]),
             day.isoformat(), rng.randint(1, 9), outcome, virtual),
        )  # fmt: skip
        if outcome == "OFR":
            offered.append((prop_ref, applicant_id, day, rent, branch))
    tenancy_no = 3000
    let = set()
    for prop_ref, applicant_id, day, rent, branch in offered:
        accepted = prop_ref not in let and rng.random() < 0.6
        status = "ACC" if accepted else rng.choice(["REJ", "REJ", "WDN", "PND"])
        amount = rent if rng.random() < 0.6 else rent - rng.choice([25, 50, 75, 100])
        connection.execute(
            "INSERT OR IGNORE INTO offer VALUES (?, ?, ?, ?, ?, ?)",
            (prop_ref, applicant_id, (day + timedelta(days=rng.randint(0, 3))).isoformat(), amount, status,
             int(rng.random() < 0.3)),
        )  # fmt: skip
        if not accepted:
            continue
        let.add(prop_ref)
        tenancy_no += 1
        start = day + timedelta(days=rng.randint(14, 45))
        term = rng.choice([6, 12, 12, 12, 24])
        periodic = int(rng.random() < 0.2)
        ended = start + timedelta(days=30 * term) if rng.random() < 0.3 else None
        connection.execute(
            "INSERT INTO tenancy VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (tenancy_no, prop_ref, rng.choice(agents[branch]),
             None if rng.random() < 0.35 else rng.choice(agents[branch]), start.isoformat(),
             ended.isoformat() if ended and ended < date(2025, 11, 25) else None, amount,
             round(amount * 12 / 52 * 5, 2), term, periodic, int(rng.random() < 0.25)),
        )  # fmt: skip
        sharers = [applicant_id] + rng.sample(range(1, 161), rng.choices([0, 1, 2, 3], [45, 35, 12, 8])[0])
        for place, tenant in enumerate(dict.fromkeys(sharers)):
            connection.execute("INSERT INTO tenancy_tenant VALUES (?, ?, ?)", (tenancy_no, tenant, int(place == 0)))


def build_estate_database(path: str | Path, seed: int = 35) -> Path:
    """Write the letting agency database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, ESTATE_SCHEMA, seed) as (connection, rng):
        _estate_people(connection, rng)
        _estate_lettings(connection, rng)
    return Path(path)


GYM_SCHEMA = """
CREATE TABLE club (
    club_cd TEXT PRIMARY KEY,
    club_nm TEXT NOT NULL,
    town_nm TEXT NOT NULL,
    open_yr INTEGER,
    pool INTEGER NOT NULL,
    refurbished INTEGER NOT NULL,
    max_occ INTEGER NOT NULL
);
CREATE TABLE plan (
    plan_cd TEXT PRIMARY KEY,
    plan_nm TEXT NOT NULL,
    monthly_amt REAL NOT NULL,
    joining_amt REAL NOT NULL,
    min_term_mths INTEGER NOT NULL,
    off_peak INTEGER NOT NULL,
    multi_club INTEGER NOT NULL
);
CREATE TABLE member (
    member_no INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    surname TEXT NOT NULL,
    birth_dt TEXT,
    gender_cd TEXT,
    home_club_cd TEXT NOT NULL REFERENCES club (club_cd),
    join_dt TEXT NOT NULL,
    email_addr TEXT,
    student INTEGER NOT NULL,
    corporate INTEGER NOT NULL
);
CREATE TABLE membership (
    member_no INTEGER NOT NULL REFERENCES member (member_no),
    start_dt TEXT NOT NULL,
    plan_cd TEXT NOT NULL REFERENCES plan (plan_cd),
    end_dt TEXT,
    pay_method_cd TEXT NOT NULL,
    disc_pct REAL NOT NULL,
    frozen INTEGER NOT NULL,
    PRIMARY KEY (member_no, start_dt)
);
CREATE TABLE trainer (
    trainer_id INTEGER PRIMARY KEY,
    club_cd TEXT NOT NULL REFERENCES club (club_cd),
    first_nm TEXT NOT NULL,
    surname TEXT NOT NULL,
    level_cd TEXT NOT NULL,
    hourly_rt REAL NOT NULL,
    hire_dt TEXT NOT NULL,
    freelance INTEGER NOT NULL
);
CREATE TABLE class_type (
    class_cd TEXT PRIMARY KEY,
    class_nm TEXT NOT NULL,
    intensity_lvl INTEGER NOT NULL,
    duration_min INTEGER NOT NULL,
    kcal_est INTEGER
);
CREATE TABLE class_session (
    session_id INTEGER PRIMARY KEY,
    class_cd TEXT NOT NULL REFERENCES class_type (class_cd),
    club_cd TEXT NOT NULL REFERENCES club (club_cd),
    trainer_id INTEGER NOT NULL REFERENCES trainer (trainer_id),
    cover_trainer_id INTEGER REFERENCES trainer (trainer_id),
    start_ts TEXT NOT NULL,
    studio_no INTEGER NOT NULL,
    cap_qty INTEGER NOT NULL,
    cancelled INTEGER NOT NULL
);
CREATE TABLE booking (
    session_id INTEGER NOT NULL REFERENCES class_session (session_id),
    member_no INTEGER NOT NULL REFERENCES member (member_no),
    booked_ts TEXT NOT NULL,
    attended INTEGER NOT NULL,
    waitlist INTEGER NOT NULL,
    PRIMARY KEY (session_id, member_no)
);
CREATE TABLE visit (
    member_no INTEGER NOT NULL REFERENCES member (member_no),
    checkin_ts TEXT NOT NULL,
    club_cd TEXT NOT NULL REFERENCES club (club_cd),
    checkout_ts TEXT,
    guest_cnt INTEGER NOT NULL,
    PRIMARY KEY (member_no, checkin_ts)
);
CREATE TABLE equipment (
    asset_no TEXT PRIMARY KEY,
    club_cd TEXT NOT NULL REFERENCES club (club_cd),
    equip_type_cd TEXT NOT NULL,
    make_nm TEXT NOT NULL,
    install_dt TEXT NOT NULL,
    last_svc_dt TEXT,
    faulty INTEGER NOT NULL
);
"""

GYM_CLUBS = [
    ("LDS1", "Leeds City", "Leeds", 2009, 1, 1, 320),
    ("LDS2", "Leeds Kirkstall", "Leeds", 2015, 0, 0, 180),
    ("YRK", "York Foss Islands", "York", 2012, 1, 0, 260),
    ("HGT", "Harrogate", "Harrogate", None, 0, 1, 150),
    ("WKF", "Wakefield Westgate", "Wakefield", 2019, 0, 0, 200),
]
# code, name, monthly fee, joining fee, minimum term in months, off-peak, multi-club
GYM_PLANS = [
    ("STD", "Standard", 29.99, 20.0, 1, 0, 0),
    ("OFP", "Off-Peak", 19.99, 20.0, 1, 1, 0),
    ("PLS", "Plus", 39.99, 0.0, 1, 0, 1),
    ("A12", "Annual Saver", 24.99, 0.0, 12, 0, 0),
    ("STU", "Student", 17.99, 0.0, 3, 1, 0),
    ("CRP", "Corporate", 22.50, 0.0, 12, 0, 1),
]
GYM_CLASSES = [
    ("SPIN", "Spin", 4, 45, 450),
    ("YOGA", "Vinyasa Yoga", 2, 60, 250),
    ("PIL", "Mat Pilates", 2, 45, 200),
    ("HIIT", "HIIT Circuit", 5, 30, 400),
    ("BODYP", "Body Pump", 4, 55, 500),
    ("ZUMBA", "Zumba", 3, 45, 380),
    ("BOX", "Boxfit", 5, 45, 520),
    ("AQUA", "Aqua Fit", 2, 45, 300),
    ("STRETCH", "Stretch and Release", 1, 30, None),
    ("KETTLE", "Kettlebells", 4, 30, None),
]
GYM_FIRST = ["Aaliyah", "Brandon", "Chantelle", "Daniel", "Ella", "Faisal", "Gemma", "Harvey", "Imogen", "Jack",
             "Keeley", "Liam", "Megan", "Nathan", "Olivia", "Priya", "Ryan", "Shannon", "Tom", "Yasmin"]  # fmt: skip
GYM_LAST = ["Ahmed", "Bailey", "Carter", "Dixon", "Ellis", "Fox", "Gill", "Hussain", "Jackson", "Khan", "Lee",
            "Marsh", "Naylor", "Parker", "Shaw", "Thompson", "Walsh", "Wright"]  # fmt: skip
GYM_EQUIPMENT = {"TRD": ["Technogym", "Life Fitness"], "BIKE": ["Keiser", "Technogym"], "ROW": ["Concept2"],
                 "XTR": ["Precor", "Life Fitness"], "RACK": ["Eleiko", "Hammer Strength"],
                 "CABLE": ["Matrix"]}  # fmt: skip


def _gym_people(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Clubs, plans, class types, trainers, equipment, 420 members and their memberships."""
    connection.executemany("INSERT INTO club VALUES (?, ?, ?, ?, ?, ?, ?)", GYM_CLUBS)
    connection.executemany("INSERT INTO plan VALUES (?, ?, ?, ?, ?, ?, ?)", GYM_PLANS)
    connection.executemany("INSERT INTO class_type VALUES (?, ?, ?, ?, ?)", GYM_CLASSES)
    for trainer_id in range(1, 27):
        level = rng.choices(["L2", "L3", "L4", "MST"], [6, 10, 4, 2])[0]
        connection.execute(
            "INSERT INTO trainer VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (trainer_id, GYM_CLUBS[trainer_id % 5][0], rng.choice(GYM_FIRST), rng.choice(GYM_LAST), level,
             {"L2": 14.5, "L3": 18.0, "L4": 24.0, "MST": 32.0}[level] + rng.choice([0.0, 0.0, 1.5]),
             (date(2011, 3, 1) + timedelta(days=rng.randint(0, 5300))).isoformat(), int(rng.random() < 0.35)),
        )  # fmt: skip
    for club, *_rest in GYM_CLUBS:
        for number in range(rng.randint(18, 34)):
            kind = rng.choice(list(GYM_EQUIPMENT))
            installed = date(2012, 1, 1) + timedelta(days=rng.randint(0, 4900))
            connection.execute(
                "INSERT INTO equipment VALUES (?, ?, ?, ?, ?, ?, ?)",
                (f"{club}-{kind}-{number + 1:03d}", club, kind, rng.choice(GYM_EQUIPMENT[kind]), installed.isoformat(),
                 None if rng.random() < 0.2 else (installed + timedelta(days=rng.randint(90, 900))).isoformat(),
                 int(rng.random() < 0.08)),
            )  # fmt: skip
    for member_no in range(200001, 200421):
        born = None if rng.random() < 0.1 else date(1955, 1, 1) + timedelta(days=rng.randint(0, 18600))
        joined = date(2019, 1, 7) + timedelta(days=rng.randint(0, 2500))
        student = int(born is not None and born > date(2001, 1, 1) and rng.random() < 0.6)
        corporate = int(not student and rng.random() < 0.12)
        surname = rng.choice(GYM_LAST)
        connection.execute(
            "INSERT INTO member VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (member_no, rng.choice(GYM_FIRST), surname, born.isoformat() if born else None,
             None if rng.random() < 0.05 else rng.choice("FM"), rng.choices(GYM_CLUBS, [35, 15, 25, 10, 15])[0][0],
             joined.isoformat(), None if rng.random() < 0.1 else f"{surname.lower()}.{member_no % 1000}@example.org",
             student, corporate),
        )  # fmt: skip
        start = joined
        for _ in range(rng.choices([1, 2, 3], [65, 28, 7])[0]):
            plan = "STU" if student else "CRP" if corporate else rng.choice(["STD", "OFP", "PLS", "A12"])
            months = rng.randint(2, 30)
            end = start + timedelta(days=30 * months) if rng.random() < 0.55 else None
            connection.execute(
                "INSERT INTO membership VALUES (?, ?, ?, ?, ?, ?, ?)",
                (member_no, start.isoformat(), plan, end.isoformat() if end else None,
                 rng.choices(["DD", "CARD", "CORP"], [75, 20, 5])[0] if plan != "CRP" else "CORP",
                 rng.choice([0.0, 0.0, 0.0, 10.0, 15.0]), int(end is None and rng.random() < 0.06)),
            )  # fmt: skip
            if end is None or end > date(2025, 11, 1):
                break
            start = end + timedelta(days=rng.randint(1, 200))


def _gym_activity(connection: sqlite3.Connection, rng: random.Random) -> None:
    """About 500 class sessions with their bookings, and about 2,400 visits."""
    trainers: dict[str, list[int]] = {}
    for trainer_id, club in connection.execute("SELECT trainer_id, club_cd FROM trainer"):
        trainers.setdefault(club, []).append(trainer_id)
    members = [row[0] for row in connection.execute("SELECT member_no FROM member")]
    for session_id in range(1, 501):
        club = rng.choices(GYM_CLUBS, [30, 15, 25, 12, 18])[0][0]
        class_cd = rng.choice(GYM_CLASSES if club in ("LDS1", "YRK") else GYM_CLASSES[:7] + GYM_CLASSES[8:])[0]
        trainer = rng.choice(trainers[club])
        cover = rng.choice([t for t in trainers[club] if t != trainer] or [trainer]) if rng.random() < 0.12 else None
        start = datetime(2025, 9, 1, 6, 30) + timedelta(days=rng.randint(0, 85), hours=rng.choice([0, 3, 6, 11, 12]))
        cap = rng.choice([12, 16, 20, 24, 30])
        cancelled = int(rng.random() < 0.05)
        connection.execute(
            "INSERT INTO class_session VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (session_id, class_cd, club, trainer, cover, start.isoformat(sep=" ", timespec="minutes"),
             rng.randint(1, 3), cap, cancelled),
        )  # fmt: skip
        for place, member_no in enumerate(rng.sample(members, rng.randint(2, cap + 4))):
            waitlist = int(place >= cap)
            booked = start - timedelta(hours=rng.randint(1, 160))
            connection.execute(
                "INSERT INTO booking VALUES (?, ?, ?, ?, ?)",
                (session_id, member_no, booked.isoformat(sep=" ", timespec="minutes"),
                 int(not cancelled and not waitlist and rng.random() < 0.82), waitlist),
            )  # fmt: skip
    homes = dict(connection.execute("SELECT member_no, home_club_cd FROM member"))
    for _ in range(2400):
        member_no = rng.choice(members)
        came = datetime(2025, 10, 1, 6, 0) + timedelta(days=rng.randint(0, 55), minutes=5 * rng.randint(0, 190))
        club = homes[member_no] if rng.random() < 0.85 else rng.choice(GYM_CLUBS)[0]
        left = None if rng.random() < 0.07 else came + timedelta(minutes=rng.randint(25, 130))
        connection.execute(
            "INSERT OR IGNORE INTO visit VALUES (?, ?, ?, ?, ?)",
            (member_no, came.isoformat(sep=" ", timespec="minutes"), club,
             left.isoformat(sep=" ", timespec="minutes") if left else None, rng.choices([0, 1, 2], [90, 8, 2])[0]),
        )  # fmt: skip


def build_gym_database(path: str | Path, seed: int = 35) -> Path:
    """Write the gym chain database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, GYM_SCHEMA, seed) as (connection, rng):
        _gym_people(connection, rng)
        _gym_activity(connection, rng)
    return Path(path)


CONFERENCE_SCHEMA = """
CREATE TABLE venue (
    venue_cd TEXT PRIMARY KEY,
    venue_nm TEXT NOT NULL,
    city_nm TEXT NOT NULL,
    country_cd TEXT NOT NULL,
    max_cap INTEGER,
    step_free INTEGER NOT NULL
);
CREATE TABLE conference (
    conf_id INTEGER PRIMARY KEY,
    conf_nm TEXT NOT NULL,
    venue_cd TEXT NOT NULL REFERENCES venue (venue_cd),
    edition_no INTEGER NOT NULL,
    start_dt TEXT NOT NULL,
    end_dt TEXT NOT NULL,
    early_fee_amt REAL NOT NULL,
    std_fee_amt REAL NOT NULL,
    hybrid INTEGER NOT NULL
);
CREATE TABLE speaker (
    speaker_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    affil_nm TEXT,
    country_cd TEXT NOT NULL,
    orcid_id TEXT,
    invited INTEGER NOT NULL
);
CREATE TABLE session (
    conf_id INTEGER NOT NULL REFERENCES conference (conf_id),
    session_no INTEGER NOT NULL,
    session_ttl TEXT NOT NULL,
    track_cd TEXT NOT NULL,
    room_nm TEXT NOT NULL,
    start_ts TEXT NOT NULL,
    chair_spk_id INTEGER REFERENCES speaker (speaker_id),
    cochair_spk_id INTEGER REFERENCES speaker (speaker_id),
    plenary INTEGER NOT NULL,
    PRIMARY KEY (conf_id, session_no)
);
CREATE TABLE talk (
    talk_id INTEGER PRIMARY KEY,
    conf_id INTEGER NOT NULL,
    session_no INTEGER NOT NULL,
    talk_ttl TEXT NOT NULL,
    talk_type_cd TEXT NOT NULL,
    slot_no INTEGER NOT NULL,
    dur_min INTEGER NOT NULL,
    recorded INTEGER NOT NULL,
    withdrawn INTEGER NOT NULL,
    FOREIGN KEY (conf_id, session_no) REFERENCES session (conf_id, session_no)
);
CREATE TABLE talk_speaker (
    talk_id INTEGER NOT NULL REFERENCES talk (talk_id),
    speaker_id INTEGER NOT NULL REFERENCES speaker (speaker_id),
    author_ord INTEGER NOT NULL,
    presenting INTEGER NOT NULL,
    PRIMARY KEY (talk_id, speaker_id)
);
CREATE TABLE attendee (
    attendee_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    email_addr TEXT,
    org_nm TEXT,
    country_cd TEXT NOT NULL,
    student INTEGER NOT NULL
);
CREATE TABLE registration (
    conf_id INTEGER NOT NULL REFERENCES conference (conf_id),
    attendee_id INTEGER NOT NULL REFERENCES attendee (attendee_id),
    reg_dt TEXT NOT NULL,
    fee_type_cd TEXT NOT NULL,
    paid_amt REAL NOT NULL,
    diet_cd TEXT,
    cancelled INTEGER NOT NULL,
    PRIMARY KEY (conf_id, attendee_id)
);
CREATE TABLE sponsor (
    sponsor_id INTEGER PRIMARY KEY,
    conf_id INTEGER NOT NULL REFERENCES conference (conf_id),
    company_nm TEXT NOT NULL,
    tier_cd TEXT NOT NULL,
    pledge_amt REAL NOT NULL,
    booth_no INTEGER,
    in_kind INTEGER NOT NULL
);
"""

CONF_VENUES = [
    ("EICC", "Edinburgh International Conference Centre", "Edinburgh", "GB", 1200, 1),
    ("RAI", "RAI Amsterdam", "Amsterdam", "NL", 2500, 1),
    ("CCIB", "Centre de Convencions Internacional", "Barcelona", "ES", 3000, 1),
    ("AUDI", "Aula Magna", "Lisbon", "PT", None, 0),
    ("CCD", "Convention Centre Dublin", "Dublin", "IE", 2000, 1),
    ("GDN", "Gdansk Shipyard Hall", "Gdansk", "PL", 600, 0),
]
# name, venue of each edition, early fee, standard fee
CONF_SERIES = [
    ("European Data Systems Forum", ["EICC", "RAI", "CCIB"], 450.0, 620.0),
    ("Applied Linguistics Summit", ["AUDI", "CCD"], 280.0, 390.0),
    ("Open Robotics Week", ["RAI", "GDN", "EICC"], 350.0, 500.0),
    ("Health Informatics Meeting", ["CCD", "CCIB"], 400.0, 560.0),
]
CONF_TRACKS = ["DB", "ML", "SYS", "HCI", "NLP", "IND"]
CONF_ROOMS = ["Hall A", "Hall B", "Room 1.01", "Room 1.02", "Auditorium", "Room 2.10"]
CONF_WORDS = ["Scalable", "Robust", "Efficient", "Learned", "Adaptive", "Private", "Fair", "Incremental",
              "Distributed", "Explainable"]  # fmt: skip
CONF_TOPICS = ["Query Planning", "Dialogue Models", "Sensor Fusion", "Index Structures", "Clinical Coding",
               "Motion Planning", "Entity Linking", "Stream Joins", "Grasping", "Patient Records"]  # fmt: skip
CONF_FIRST = ["Anna", "Bram", "Carla", "Dirk", "Elena", "Finn", "Greta", "Hugo", "Ines", "Jonas", "Katrin", "Luca",
              "Marta", "Niels", "Olga", "Pablo", "Rosa", "Sven", "Tomas", "Zofia"]  # fmt: skip
CONF_LAST = ["Andersen", "Bakker", "Costa", "Dubois", "Fischer", "Garcia", "Horvath", "Jansen", "Kowalski",
             "Lopez", "Murphy", "Novak", "Rossi", "Schmidt", "Silva", "Walsh"]  # fmt: skip
CONF_AFFILS = ["University of Edinburgh", "TU Delft", "KU Leuven", "ETH Zurich", "Trinity College Dublin",
               "Universitat de Barcelona", "Siemens", "Philips Research"]  # fmt: skip
CONF_COUNTRIES = ["GB", "NL", "ES", "PT", "IE", "PL", "DE", "FR", "IT", "BE"]
CONF_COMPANIES = ["Elastic", "Databricks", "Bosch", "Roche", "Booking.com", "Spotify", "ASML", "Zalando", "Adyen",
                  "Oracle"]  # fmt: skip


def _conference_programme(connection: sqlite3.Connection, rng: random.Random) -> list[int]:
    """Venues, ten conferences, 80 speakers, their sessions, talks and authors; returns the conference ids."""
    connection.executemany("INSERT INTO venue VALUES (?, ?, ?, ?, ?, ?)", CONF_VENUES)
    conf_ids = []
    for name, venues, early, standard in CONF_SERIES:
        for edition, venue in enumerate(venues, start=1):
            start = date(2022 + edition, rng.randint(3, 10), rng.randint(1, 25))
            cursor = connection.execute(
                "INSERT INTO conference (conf_nm, venue_cd, edition_no, start_dt, end_dt, early_fee_amt, std_fee_amt,"
                " hybrid) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (name, venue, edition, start.isoformat(),
                 (start + timedelta(days=rng.choice([1, 2, 2, 3]))).isoformat(), early + 25 * (edition - 1),
                 standard + 30 * (edition - 1), int(rng.random() < 0.4)),
            )  # fmt: skip
            conf_ids.append(cursor.lastrowid)
    for speaker_id in range(1, 81):
        last = rng.choice(CONF_LAST)
        connection.execute(
            "INSERT INTO speaker VALUES (?, ?, ?, ?, ?, ?, ?)",
            (speaker_id, rng.choice(CONF_FIRST), last, None if rng.random() < 0.15 else rng.choice(CONF_AFFILS),
             rng.choice(CONF_COUNTRIES),
             None if rng.random() < 0.35 else f"0000-000{rng.randint(1, 3)}-{rng.randint(1000, 9999)}-{speaker_id:04d}",
             int(rng.random() < 0.12)),
        )  # fmt: skip
    talk_id = 0
    for conf_id in conf_ids:
        row = connection.execute("SELECT start_dt FROM conference WHERE conf_id = ?", (conf_id,)).fetchone()
        start = date.fromisoformat(row[0])
        for session_no in range(1, rng.randint(4, 7)):
            plenary = int(session_no == 1)
            chair = None if rng.random() < 0.1 else rng.randint(1, 80)
            cochair = rng.randint(1, 80) if chair and rng.random() < 0.4 else None
            when = datetime(start.year, start.month, start.day, 9, 0) + timedelta(hours=2 * (session_no - 1))
            connection.execute(
                "INSERT INTO session VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (conf_id, session_no, "Opening keynote" if plenary else f"{rng.choice(CONF_TOPICS)} {session_no}",
                 "PLN" if plenary else rng.choice(CONF_TRACKS), "Auditorium" if plenary else rng.choice(CONF_ROOMS),
                 when.isoformat(sep=" ", timespec="minutes"), chair, cochair, plenary),
            )  # fmt: skip
            for slot in range(1, 2 if plenary else rng.randint(2, 4)):
                talk_id += 1
                kind = "KEY" if plenary else rng.choices(["PAP", "SHT", "PST", "IND"], [50, 25, 15, 10])[0]
                connection.execute(
                    "INSERT INTO talk VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (talk_id, conf_id, session_no, f"{rng.choice(CONF_WORDS)} {rng.choice(CONF_TOPICS)}", kind, slot,
                     {"KEY": 60, "PAP": 20, "SHT": 10, "PST": 5, "IND": 15}[kind], int(rng.random() < 0.6),
                     int(rng.random() < 0.05)),
                )  # fmt: skip
                for order, speaker_id in enumerate(rng.sample(range(1, 81), rng.choice([1, 1, 2, 3, 4])), start=1):
                    connection.execute(
                        "INSERT INTO talk_speaker VALUES (?, ?, ?, ?)", (talk_id, speaker_id, order, int(order == 1))
                    )
    return conf_ids


def _conference_people(connection: sqlite3.Connection, rng: random.Random, conf_ids: list[int]) -> None:
    """90 attendees, 6 to 11 registrations per conference and 2 to 6 sponsors per conference."""
    for attendee_id in range(1, 91):
        last = rng.choice(CONF_LAST)
        connection.execute(
            "INSERT INTO attendee VALUES (?, ?, ?, ?, ?, ?, ?)",
            (attendee_id, rng.choice(CONF_FIRST), last,
             None if rng.random() < 0.1 else f"{last.lower()}{attendee_id}@example.org",
             None if rng.random() < 0.2 else rng.choice(CONF_AFFILS + CONF_COMPANIES), rng.choice(CONF_COUNTRIES),
             int(rng.random() < 0.25)),
        )  # fmt: skip
    query = "SELECT conf_id, start_dt, early_fee_amt, std_fee_amt FROM conference"
    fees = {row[0]: row[1:] for row in connection.execute(query)}
    students = {row[0] for row in connection.execute("SELECT attendee_id FROM attendee WHERE student = 1")}
    for conf_id in conf_ids:
        start, early, standard = fees[conf_id]
        for attendee_id in rng.sample(range(1, 91), rng.randint(6, 12)):
            days_before = rng.randint(3, 150)
            kind = "STU" if attendee_id in students else "EARLY" if days_before > 60 else "STD"
            paid = {"STU": round(early * 0.4, 2), "EARLY": early, "STD": standard}[kind]
            connection.execute(
                "INSERT INTO registration VALUES (?, ?, ?, ?, ?, ?, ?)",
                (conf_id, attendee_id, (date.fromisoformat(start) - timedelta(days=days_before)).isoformat(), kind,
                 paid, rng.choices([None, "VEG", "VGN", "GF", "HAL"], [60, 15, 10, 8, 7])[0],
                 int(rng.random() < 0.07)),
            )  # fmt: skip
        for company in rng.sample(CONF_COMPANIES, rng.randint(2, 6)):
            tier = rng.choices(["GOLD", "SILV", "BRNZ"], [2, 3, 5])[0]
            in_kind = int(rng.random() < 0.15)
            connection.execute(
                "INSERT INTO sponsor (conf_id, company_nm, tier_cd, pledge_amt, booth_no, in_kind)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (conf_id, company, tier,
                 {"GOLD": 15000.0, "SILV": 8000.0, "BRNZ": 3000.0}[tier] * (0.5 if in_kind else 1),
                 None if tier == "BRNZ" and rng.random() < 0.6 else rng.randint(1, 40), in_kind),
            )  # fmt: skip


def build_conference_database(path: str | Path, seed: int = 35) -> Path:
    """Write the conference organiser database to `path` (replacing it) from `seed`; the same seed, the same file."""
    with _fresh_database(path, CONFERENCE_SCHEMA, seed) as (connection, rng):
        _conference_people(connection, rng, _conference_programme(connection, rng))
    return Path(path)


FLEET_SCHEMA = """
CREATE TABLE depot (
    depot_cd TEXT PRIMARY KEY,
    depot_nm TEXT NOT NULL,
    town_nm TEXT NOT NULL,
    bay_cnt INTEGER NOT NULL,
    wash_bay INTEGER NOT NULL
);
CREATE TABLE model (
    model_cd TEXT PRIMARY KEY,
    make_nm TEXT NOT NULL,
    model_nm TEXT NOT NULL,
    fuel_cd TEXT NOT NULL,
    gvw_kg INTEGER NOT NULL,
    svc_int_km INTEGER NOT NULL
);
CREATE TABLE vehicle (
    reg_no TEXT PRIMARY KEY,
    model_cd TEXT NOT NULL REFERENCES model (model_cd),
    base_depot_cd TEXT NOT NULL REFERENCES depot (depot_cd),
    maint_depot_cd TEXT NOT NULL REFERENCES depot (depot_cd),
    vin_no TEXT NOT NULL,
    first_reg_dt TEXT NOT NULL,
    odo_km INTEGER NOT NULL,
    leased INTEGER NOT NULL,
    off_road INTEGER NOT NULL
);
CREATE TABLE driver (
    driver_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    depot_cd TEXT NOT NULL REFERENCES depot (depot_cd),
    licence_cat TEXT NOT NULL,
    hire_dt TEXT NOT NULL,
    pts_cnt INTEGER NOT NULL,
    agency INTEGER NOT NULL
);
CREATE TABLE work_order (
    wo_no INTEGER PRIMARY KEY,
    reg_no TEXT NOT NULL REFERENCES vehicle (reg_no),
    depot_cd TEXT NOT NULL REFERENCES depot (depot_cd),
    reported_by INTEGER REFERENCES driver (driver_id),
    wo_type_cd TEXT NOT NULL,
    opened_dt TEXT NOT NULL,
    closed_dt TEXT,
    odo_km INTEGER NOT NULL,
    labour_hrs REAL,
    vor INTEGER NOT NULL
);
CREATE TABLE part (
    part_no TEXT PRIMARY KEY,
    part_desc TEXT NOT NULL,
    supplier_nm TEXT NOT NULL,
    unit_cost REAL NOT NULL,
    min_stock INTEGER NOT NULL,
    oem INTEGER NOT NULL
);
CREATE TABLE part_usage (
    wo_no INTEGER NOT NULL REFERENCES work_order (wo_no),
    part_no TEXT NOT NULL REFERENCES part (part_no),
    qty INTEGER NOT NULL,
    cost_amt REAL NOT NULL,
    warranty INTEGER NOT NULL,
    PRIMARY KEY (wo_no, part_no)
);
CREATE TABLE inspection (
    insp_id INTEGER PRIMARY KEY,
    reg_no TEXT NOT NULL REFERENCES vehicle (reg_no),
    driver_id INTEGER REFERENCES driver (driver_id),
    insp_type_cd TEXT NOT NULL,
    insp_dt TEXT NOT NULL,
    odo_km INTEGER NOT NULL,
    defect_cnt INTEGER NOT NULL,
    passed INTEGER NOT NULL
);
"""

FLEET_DEPOTS = [("BHX", "Birmingham Hub", "Birmingham", 12, 1), ("COV", "Coventry", "Coventry", 6, 0),
                ("WOL", "Wolverhampton", "Wolverhampton", 8, 1), ("DER", "Derby East", "Derby", 5, 0)]  # fmt: skip
FLEET_MODELS = [
    ("ACT18", "Mercedes-Benz", "Actros 1845", "DSL", 18000, 100000),
    ("FH460", "Volvo", "FH 460", "DSL", 44000, 120000),
    ("XF480", "DAF", "XF 480", "HVO", 44000, 120000),
    ("LF230", "DAF", "LF 230", "DSL", 12000, 60000),
    ("ECAN", "Renault", "E-Tech D", "BEV", 16000, 80000),
    ("SPR35", "Mercedes-Benz", "Sprinter 316", "DSL", 3500, 40000),
    ("ETR35", "Ford", "E-Transit", "BEV", 3500, 50000),
    ("SCR45", "Scania", "R 450", "HVO", 44000, 120000),
]
FLEET_FIRST = ["Andy", "Barry", "Craig", "Darren", "Gary", "Jas", "Karen", "Lee", "Mick", "Paul", "Raj", "Sam",
               "Steve", "Tracy", "Wayne"]  # fmt: skip
FLEET_LAST = ["Bennett", "Dhillon", "Edwards", "Green", "Hall", "Jones", "Kaur", "Mason", "Patel", "Shaw", "Smith",
              "Taylor", "Walker", "Wood"]  # fmt: skip
FLEET_PARTS = [
    ("FLT-OIL-01", "Oil filter", "Mann", 18.50, 20, 0),
    ("FLT-AIR-02", "Air filter", "Donaldson", 42.00, 10, 0),
    ("BRK-PAD-F", "Front brake pads", "Brembo", 96.00, 8, 0),
    ("BRK-DSC-F", "Front brake disc", "Brembo", 180.00, 4, 0),
    ("TYR-315-70", "Tyre 315/70 R22.5", "Michelin", 410.00, 6, 0),
    ("TYR-215-65", "Tyre 215/65 R16", "Continental", 135.00, 8, 0),
    ("WPR-BLD", "Wiper blade", "Bosch", 14.00, 30, 0),
    ("BLB-H7", "Headlamp bulb H7", "Osram", 6.50, 40, 0),
    ("BAT-12V", "12V battery", "Varta", 220.00, 4, 0),
    ("ADB-SEN", "AdBlue sensor", "Mercedes-Benz", 310.00, 2, 1),
    ("MIR-GLS", "Mirror glass", "Volvo", 58.00, 5, 1),
    ("CLT-KIT", "Clutch kit", "Sachs", 890.00, 1, 0),
    ("ENG-OIL-5L", "Engine oil 5 litre", "Shell", 32.00, 25, 0),
    ("HV-COOL", "HV battery coolant", "Renault", 75.00, 3, 1),
]


def _fleet_assets(connection: sqlite3.Connection, rng: random.Random) -> list[str]:
    """Depots, models, parts, 70 vehicles and 60 drivers; returns the vehicles' registrations."""
    connection.executemany("INSERT INTO depot VALUES (?, ?, ?, ?, ?)", FLEET_DEPOTS)
    connection.executemany("INSERT INTO model VALUES (?, ?, ?, ?, ?, ?)", FLEET_MODELS)
    connection.executemany("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)", FLEET_PARTS)
    regs = []
    for _ in range(70):
        first = date(2016, 3, 1) + timedelta(days=rng.randint(0, 3400))
        age = first.year % 100 + (50 if first.month >= 9 else 0)
        letters = "".join(rng.choices("ABCDEFGHJKLMNPRSTUVWXYZ", k=3))
        reg = f"{rng.choice('BFKLMY')}{rng.choice('ABDEGKLMNPRX')}{age:02d} {letters}"
        base = rng.choices(FLEET_DEPOTS, [40, 20, 25, 15])[0][0]
        maint = base if rng.random() < 0.7 or base in ("BHX", "WOL") else rng.choice(["BHX", "WOL"])
        connection.execute(
            "INSERT INTO vehicle VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (reg, rng.choice(FLEET_MODELS)[0], base, maint, f"WDB{rng.randint(10**13, 10**14 - 1)}", first.isoformat(),
             (date(2026, 11, 1) - first).days * rng.randint(150, 420), int(rng.random() < 0.35),
             int(rng.random() < 0.06)),
        )  # fmt: skip
        regs.append(reg)
    for driver_id in range(1, 61):
        connection.execute(
            "INSERT INTO driver VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (driver_id, rng.choice(FLEET_FIRST), rng.choice(FLEET_LAST), rng.choice(FLEET_DEPOTS)[0],
             rng.choices(["C+E", "C", "C1", "B"], [45, 25, 10, 20])[0],
             (date(2008, 1, 1) + timedelta(days=rng.randint(0, 6500))).isoformat(),
             rng.choices([0, 3, 6, 9], [70, 18, 9, 3])[0],
             int(rng.random() < 0.2)),
        )  # fmt: skip
    return regs


def _fleet_upkeep(connection: sqlite3.Connection, rng: random.Random, regs: list[str]) -> None:
    """About 100 work orders with the parts they used, and 100 inspections."""
    odometers = dict(connection.execute("SELECT reg_no, odo_km FROM vehicle"))
    maint = dict(connection.execute("SELECT reg_no, maint_depot_cd FROM vehicle"))
    for wo_no in range(5001, 5101):
        reg = rng.choice(regs)
        kind = rng.choices(["SVC", "REP", "TYR", "DEF", "ACC"], [35, 30, 15, 15, 5])[0]
        opened = date(2025, 6, 1) + timedelta(days=rng.randint(0, 510))
        closed = (
            None if opened > date(2026, 10, 20) and rng.random() < 0.6 else opened + timedelta(days=rng.randint(0, 9))
        )
        connection.execute(
            "INSERT INTO work_order VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (wo_no, reg, maint[reg] if rng.random() < 0.85 else rng.choice(FLEET_DEPOTS)[0],
             rng.randint(1, 60) if kind in ("DEF", "ACC") else None, kind, opened.isoformat(),
             closed.isoformat() if closed else None, odometers[reg] - rng.randint(0, 40000),
             None if closed is None else round(rng.choice([0.5, 1.0, 1.5, 2.0, 3.0, 4.5, 8.0]), 1),
             int(kind in ("REP", "ACC") and rng.random() < 0.4)),
        )  # fmt: skip
        for part in rng.sample(FLEET_PARTS, rng.choice([0, 1, 1, 2, 3])):
            qty = rng.choice([1, 1, 2, 4]) if part[0] != "ENG-OIL-5L" else rng.randint(4, 8)
            warranty = int(rng.random() < 0.08)
            connection.execute(
                "INSERT INTO part_usage VALUES (?, ?, ?, ?, ?)",
                (wo_no, part[0], qty, 0.0 if warranty else round(qty * part[3] * rng.uniform(0.95, 1.1), 2), warranty),
            )  # fmt: skip
    for insp_id in range(1, 101):
        reg = rng.choice(regs)
        kind = rng.choices(["WLK", "PMI", "MOT"], [50, 35, 15])[0]
        defects = rng.choices([0, 1, 2, 4], [60, 22, 12, 6])[0]
        connection.execute(
            "INSERT INTO inspection VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (insp_id, reg, rng.randint(1, 60) if kind == "WLK" else None, kind,
             (date(2025, 6, 1) + timedelta(days=rng.randint(0, 520))).isoformat(),
             odometers[reg] - rng.randint(0, 30000), defects, int(defects < 2 or kind == "WLK" and defects < 4)),
        )  # fmt: skip


def build_fleet_database(path: str | Path, seed: int = 35) -> Path:
    """Write the vehicle fleet database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, FLEET_SCHEMA, seed) as (connection, rng):
        _fleet_upkeep(connection, rng, _fleet_assets(connection, rng))
    return Path(path)


RESTAURANT_SCHEMA = """
CREATE TABLE restaurant (
    rest_id INTEGER PRIMARY KEY,
    rest_nm TEXT NOT NULL,
    city_nm TEXT NOT NULL,
    opened_yr INTEGER,
    seat_cnt INTEGER NOT NULL,
    licensed INTEGER NOT NULL,
    outdoor INTEGER NOT NULL
);
CREATE TABLE menu_item (
    item_cd TEXT PRIMARY KEY,
    item_nm TEXT NOT NULL,
    course_cd TEXT NOT NULL,
    price_amt REAL NOT NULL,
    kcal_est INTEGER,
    vegan INTEGER NOT NULL,
    seasonal INTEGER NOT NULL
);
CREATE TABLE allergen (
    allergen_cd TEXT PRIMARY KEY,
    allergen_nm TEXT NOT NULL
);
CREATE TABLE item_allergen (
    item_cd TEXT NOT NULL REFERENCES menu_item (item_cd),
    allergen_cd TEXT NOT NULL REFERENCES allergen (allergen_cd),
    trace_only INTEGER NOT NULL,
    PRIMARY KEY (item_cd, allergen_cd)
);
CREATE TABLE staff (
    staff_id INTEGER PRIMARY KEY,
    rest_id INTEGER NOT NULL REFERENCES restaurant (rest_id),
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    role_cd TEXT NOT NULL,
    hourly_rt REAL NOT NULL,
    hire_dt TEXT NOT NULL,
    part_time INTEGER NOT NULL
);
CREATE TABLE shift (
    staff_id INTEGER NOT NULL REFERENCES staff (staff_id),
    shift_dt TEXT NOT NULL,
    start_tm TEXT NOT NULL,
    end_tm TEXT NOT NULL,
    brk_min INTEGER NOT NULL,
    PRIMARY KEY (staff_id, shift_dt)
);
CREATE TABLE dining_table (
    rest_id INTEGER NOT NULL REFERENCES restaurant (rest_id),
    table_no INTEGER NOT NULL,
    seat_cnt INTEGER NOT NULL,
    window_side INTEGER NOT NULL,
    PRIMARY KEY (rest_id, table_no)
);
CREATE TABLE booking (
    booking_id INTEGER PRIMARY KEY,
    rest_id INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    cust_nm TEXT NOT NULL,
    party_sz INTEGER NOT NULL,
    booked_for_ts TEXT NOT NULL,
    cancelled INTEGER NOT NULL,
    FOREIGN KEY (rest_id, table_no) REFERENCES dining_table (rest_id, table_no)
);
CREATE TABLE cust_order (
    order_id INTEGER PRIMARY KEY,
    rest_id INTEGER NOT NULL REFERENCES restaurant (rest_id),
    table_no INTEGER NOT NULL,
    booking_id INTEGER REFERENCES booking (booking_id),
    server_id INTEGER NOT NULL REFERENCES staff (staff_id),
    cashier_id INTEGER REFERENCES staff (staff_id),
    order_ts TEXT NOT NULL,
    tip_amt REAL NOT NULL,
    paid INTEGER NOT NULL
);
CREATE TABLE order_line (
    order_id INTEGER NOT NULL REFERENCES cust_order (order_id),
    line_no INTEGER NOT NULL,
    item_cd TEXT NOT NULL REFERENCES menu_item (item_cd),
    qty INTEGER NOT NULL,
    comped INTEGER NOT NULL,
    PRIMARY KEY (order_id, line_no)
);
"""

REST_SITES = [
    (1, "Olive & Ember", "Bristol", 2014, 64, 1, 1),
    (2, "Olive & Ember Bath", "Bath", 2018, 48, 1, 0),
    (3, "Harbour Kitchen", "Bristol", None, 80, 1, 1),
    (4, "The Green Fork", "Cardiff", 2021, 36, 0, 0),
    (5, "Ember Express", "Swindon", 2023, 30, 0, 1),
]
# code, name, course, price, calories, vegan, seasonal
REST_ITEMS = [
    ("ST01", "Tomato Soup", "STR", 6.5, 210, 1, 0), ("ST02", "Calamari", "STR", 8.95, 420, 0, 0),
    ("ST03", "Burrata", "STR", 9.5, 380, 0, 1), ("ST04", "Hummus Plate", "STR", 7.0, 350, 1, 0),
    ("ST05", "Chicken Wings", "STR", 8.0, 610, 0, 0), ("ST06", "Asparagus Tart", "STR", 8.5, None, 0, 1),
    ("MN01", "Ribeye Steak", "MN", 27.0, 980, 0, 0), ("MN02", "Fish and Chips", "MN", 16.5, 1040, 0, 0),
    ("MN03", "Mushroom Risotto", "MN", 14.0, 720, 0, 0), ("MN04", "Lamb Tagine", "MN", 19.5, 830, 0, 1),
    ("MN05", "Chickpea Curry", "MN", 13.0, 640, 1, 0), ("MN06", "Margherita Pizza", "MN", 11.5, 890, 0, 0),
    ("MN07", "Sea Bass", "MN", 21.0, 560, 0, 1), ("MN08", "Beef Burger", "MN", 15.0, 1120, 0, 0),
    ("MN09", "Vegan Burger", "MN", 14.5, 870, 1, 0), ("MN10", "Crab Linguine", "MN", 18.0, 760, 0, 1),
    ("SD01", "Fries", "SD", 4.0, 420, 1, 0), ("SD02", "Green Salad", "SD", 4.5, 90, 1, 0),
    ("SD03", "Garlic Bread", "SD", 4.5, 380, 0, 0), ("SD04", "Onion Rings", "SD", 4.5, 450, 1, 0),
    ("DS01", "Sticky Toffee Pudding", "DS", 7.0, 690, 0, 0), ("DS02", "Lemon Tart", "DS", 6.5, 480, 0, 0),
    ("DS03", "Sorbet", "DS", 5.0, 180, 1, 1), ("DS04", "Chocolate Brownie", "DS", 6.5, 560, 0, 0),
    ("DR01", "House Red", "DRK", 6.0, None, 1, 0), ("DR02", "Pale Ale", "DRK", 5.5, None, 1, 0),
    ("DR03", "Elderflower Spritz", "DRK", 4.0, None, 1, 1), ("DR04", "Flat White", "DRK", 3.2, None, 0, 0),
]  # fmt: skip
REST_ALLERGENS = [
    ("GLU", "Gluten"), ("MLK", "Milk"), ("EGG", "Eggs"), ("FSH", "Fish"), ("CRU", "Crustaceans"),
    ("MOL", "Molluscs"), ("NUT", "Tree nuts"), ("PNT", "Peanuts"), ("SES", "Sesame"), ("SOY", "Soya"),
    ("CEL", "Celery"), ("MUS", "Mustard"), ("SUL", "Sulphites"),
]  # fmt: skip
REST_FIRST = ["Abi", "Ben", "Cara", "Dylan", "Erin", "Finley", "Georgia", "Harry", "Isla", "Jake", "Kirsty", "Luke",
              "Mia", "Niall", "Owen", "Poppy", "Reece", "Sian", "Tyler", "Zoe"]  # fmt: skip
REST_LAST = ["Adams", "Bevan", "Clarke", "Davies", "Evans", "Forde", "Griffiths", "Howell", "Jones", "Lewis",
             "Morgan", "Owen", "Price", "Rees", "Thomas", "Williams"]  # fmt: skip
REST_CUSTOMERS = ["Patel", "Hughes", "Okoro", "Jenkins", "Nguyen", "Roberts", "Kowalski", "Murphy", "Ali", "Stone",
                  "Bishop", "Chen", "Doyle", "Foster", "Grant"]  # fmt: skip


def _restaurant_setup(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Sites, tables, the menu and its allergens, 60 staff and their shifts."""
    connection.executemany("INSERT INTO restaurant VALUES (?, ?, ?, ?, ?, ?, ?)", REST_SITES)
    connection.executemany("INSERT INTO menu_item VALUES (?, ?, ?, ?, ?, ?, ?)", REST_ITEMS)
    connection.executemany("INSERT INTO allergen VALUES (?, ?)", REST_ALLERGENS)
    for item in REST_ITEMS:
        if item[0].startswith("DR") and rng.random() < 0.6:
            continue
        for code, _name in rng.sample(REST_ALLERGENS, rng.choice([1, 1, 2, 2, 3, 4])):
            connection.execute("INSERT INTO item_allergen VALUES (?, ?, ?)", (item[0], code, int(rng.random() < 0.2)))
    for rest_id, _name, _city, _year, seats, *_flags in REST_SITES:
        for table_no in range(1, seats // 4 + 1):
            connection.execute(
                "INSERT INTO dining_table VALUES (?, ?, ?, ?)",
                (rest_id, table_no, rng.choice([2, 2, 4, 4, 4, 6, 8]), int(table_no <= 3)),
            )
    for staff_id in range(1, 61):
        role = rng.choices(["SRV", "CHF", "KP", "MGR", "BAR", "HST"], [20, 8, 6, 3, 6, 4])[0]
        connection.execute(
            "INSERT INTO staff VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (staff_id, REST_SITES[staff_id % 5][0], rng.choice(REST_FIRST), rng.choice(REST_LAST), role,
             {"SRV": 11.44, "CHF": 15.5, "KP": 11.44, "MGR": 17.0, "BAR": 12.0, "HST": 11.6}[role]
             + rng.choice([0.0, 0.0, 0.5, 1.25]),
             (date(2014, 5, 1) + timedelta(days=rng.randint(0, 4000))).isoformat(), int(rng.random() < 0.4)),
        )  # fmt: skip
    for staff_id in range(1, 61):
        for day in rng.sample(range(28), rng.randint(1, 5)):
            start = rng.choice(["07:00", "11:00", "12:00", "16:30", "17:00"])
            end = {"07:00": "15:00", "11:00": "19:00", "12:00": "20:00", "16:30": "23:00", "17:00": "23:30"}[start]
            connection.execute(
                "INSERT INTO shift VALUES (?, ?, ?, ?, ?)",
                (staff_id, (date(2026, 10, 1) + timedelta(days=day)).isoformat(), start, end,
                 rng.choice([0, 30, 30, 45])),
            )  # fmt: skip


def _restaurant_service(connection: sqlite3.Connection, rng: random.Random) -> None:
    """70 bookings, 80 orders (some from a booking) and their lines."""
    tables = connection.execute("SELECT rest_id, table_no, seat_cnt FROM dining_table").fetchall()
    staff: dict[int, list[tuple[int, str]]] = {}
    for staff_id, rest_id, role in connection.execute("SELECT staff_id, rest_id, role_cd FROM staff"):
        staff.setdefault(rest_id, []).append((staff_id, role))
    bookings = []
    for booking_id in range(1, 71):
        rest_id, table_no, seats = rng.choice(tables)
        when = datetime(2026, 10, 1, 12, 0) + timedelta(days=rng.randint(0, 27), minutes=30 * rng.randint(0, 18))
        cancelled = int(rng.random() < 0.12)
        connection.execute(
            "INSERT INTO booking VALUES (?, ?, ?, ?, ?, ?, ?)",
            (booking_id, rest_id, table_no, rng.choice(REST_CUSTOMERS), rng.randint(1, seats),
             when.isoformat(sep=" ", timespec="minutes"), cancelled),
        )  # fmt: skip
        if not cancelled:
            bookings.append((booking_id, rest_id, table_no, when))
    for order_id in range(1, 81):
        if bookings and rng.random() < 0.5:
            booking_id, rest_id, table_no, when = bookings.pop(rng.randrange(len(bookings)))
        else:
            rest_id, table_no, _seats = rng.choice(tables)
            booking_id = None
            when = datetime(2026, 10, 1, 12, 0) + timedelta(days=rng.randint(0, 27), minutes=15 * rng.randint(0, 36))
        people = staff.get(rest_id, [])
        servers = [s for s, role in people if role in ("SRV", "HST", "MGR")] or [s for s, _ in people]
        tills = [s for s, role in people if role in ("BAR", "MGR")]
        paid = int(rng.random() < 0.93)
        connection.execute(
            "INSERT INTO cust_order VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (order_id, rest_id, table_no, booking_id, rng.choice(servers),
             rng.choice(tills) if tills and paid and rng.random() < 0.7 else None,
             (when + timedelta(minutes=rng.randint(0, 20))).isoformat(sep=" ", timespec="minutes"),
             rng.choice([0.0, 0.0, 2.0, 3.5, 5.0, 7.5, 10.0]) if paid else 0.0, paid),
        )  # fmt: skip
        for line_no, item in enumerate(rng.sample(REST_ITEMS, rng.randint(1, 6)), start=1):
            connection.execute(
                "INSERT INTO order_line VALUES (?, ?, ?, ?, ?)",
                (order_id, line_no, item[0], rng.choices([1, 2, 3, 4], [70, 20, 6, 4])[0], int(rng.random() < 0.04)),
            )


def build_restaurant_database(path: str | Path, seed: int = 35) -> Path:
    """Write the restaurant chain database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, RESTAURANT_SCHEMA, seed) as (connection, rng):
        _restaurant_setup(connection, rng)
        _restaurant_service(connection, rng)
    return Path(path)


TRACKER_SCHEMA = """
CREATE TABLE app_user (
    user_id INTEGER PRIMARY KEY,
    login_nm TEXT NOT NULL UNIQUE,
    full_nm TEXT NOT NULL,
    email_addr TEXT,
    tz_cd TEXT,
    joined_dt TEXT NOT NULL,
    admin INTEGER NOT NULL,
    deactivated INTEGER NOT NULL
);
CREATE TABLE project (
    proj_key TEXT PRIMARY KEY,
    proj_nm TEXT NOT NULL,
    lead_user_id INTEGER NOT NULL REFERENCES app_user (user_id),
    created_dt TEXT NOT NULL,
    repo_url TEXT,
    archived INTEGER NOT NULL
);
CREATE TABLE release (
    proj_key TEXT NOT NULL REFERENCES project (proj_key),
    version_str TEXT NOT NULL,
    release_dt TEXT,
    lts INTEGER NOT NULL,
    PRIMARY KEY (proj_key, version_str)
);
CREATE TABLE issue (
    issue_id INTEGER PRIMARY KEY,
    proj_key TEXT NOT NULL REFERENCES project (proj_key),
    summary_txt TEXT NOT NULL,
    type_cd TEXT NOT NULL,
    prio_lvl INTEGER NOT NULL,
    status_cd TEXT NOT NULL,
    reporter_id INTEGER NOT NULL REFERENCES app_user (user_id),
    closed_by_id INTEGER REFERENCES app_user (user_id),
    fix_version_str TEXT,
    opened_ts TEXT NOT NULL,
    closed_ts TEXT,
    est_hrs REAL,
    reopened INTEGER NOT NULL,
    FOREIGN KEY (proj_key, fix_version_str) REFERENCES release (proj_key, version_str)
);
CREATE TABLE issue_assignee (
    issue_id INTEGER NOT NULL REFERENCES issue (issue_id),
    user_id INTEGER NOT NULL REFERENCES app_user (user_id),
    assigned_dt TEXT NOT NULL,
    PRIMARY KEY (issue_id, user_id)
);
CREATE TABLE comment (
    comment_id INTEGER PRIMARY KEY,
    issue_id INTEGER NOT NULL REFERENCES issue (issue_id),
    author_id INTEGER NOT NULL REFERENCES app_user (user_id),
    posted_ts TEXT NOT NULL,
    body_len INTEGER NOT NULL,
    edited INTEGER NOT NULL,
    internal INTEGER NOT NULL
);
CREATE TABLE label (
    label_id INTEGER PRIMARY KEY,
    label_nm TEXT NOT NULL,
    colour_hex TEXT NOT NULL
);
CREATE TABLE issue_label (
    issue_id INTEGER NOT NULL REFERENCES issue (issue_id),
    label_id INTEGER NOT NULL REFERENCES label (label_id),
    PRIMARY KEY (issue_id, label_id)
);
"""

TRACKER_PROJECTS = [
    ("CORE", "Ledger Core", 3, "2019-02-11", "https://git.example.org/ledger/core", 0),
    ("WEB", "Ledger Web", 7, "2020-06-01", "https://git.example.org/ledger/web", 0),
    ("MOB", "Ledger Mobile", 12, "2021-09-15", None, 0),
    ("API", "Public API", 3, "2020-01-20", "https://git.example.org/ledger/api", 0),
    ("OPS", "Infrastructure", 18, "2019-05-02", None, 0),
    ("LEG", "Legacy Importer", 5, "2018-03-30", "https://git.example.org/ledger/importer", 1),
]
TRACKER_LABELS = [
    (1, "regression", "d73a4a"), (2, "ui", "1d76db"), (3, "performance", "fbca04"), (4, "security", "b60205"),
    (5, "docs", "0075ca"), (6, "good first issue", "7057ff"), (7, "needs triage", "e4e669"),
    (8, "wontfix", "ffffff"), (9, "flaky test", "c5def5"), (10, "accessibility", "0e8a16"),
]  # fmt: skip
TRACKER_PEOPLE = ["Aisha Bello", "Bruno Costa", "Chloe Martin", "Dmitri Ivanov", "Elif Demir", "Femi Adeyemi",
                  "Greta Lund", "Hiro Tanaka", "Ines Moreau", "Jonah Weiss", "Kavya Rao", "Lars Berg",
                  "Mei Lin", "Nico Russo", "Olga Petrova", "Pablo Ruiz", "Quinn Doyle", "Rania Haddad",
                  "Sam Okafor", "Tess Walker", "Umar Shah", "Vera Novak", "Wen Zhou", "Yara Saleh"]  # fmt: skip
TRACKER_WORDS = [
    ("Crash when", ["exporting a report", "opening settings", "the session expires", "syncing offline changes"]),
    ("Slow", ["dashboard load", "search on large ledgers", "CSV import", "login on mobile"]),
    ("Add", ["dark mode", "two-factor login", "bulk edit of entries", "webhook retries", "a currency filter"]),
    ("Fix typo in", ["the install guide", "the API reference", "the error page"]),
    ("Update", ["the TLS certificates", "the base image", "the nightly backup job"]),
]  # fmt: skip


def _tracker_setup(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Users, projects, releases and labels."""
    for user_id, name in enumerate(TRACKER_PEOPLE, start=1):
        first, last = name.split()
        connection.execute(
            "INSERT INTO app_user VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (user_id, f"{first[0].lower()}{last.lower()}", name,
             None if rng.random() < 0.1 else f"{first.lower()}.{last.lower()}@example.org",
             rng.choice(["UTC", "CET", "EST", "IST", "JST", None]),
             (date(2018, 1, 8) + timedelta(days=rng.randint(0, 2600))).isoformat(), int(user_id in (3, 18)),
             int(rng.random() < 0.12)),
        )  # fmt: skip
    connection.executemany("INSERT INTO project VALUES (?, ?, ?, ?, ?, ?)", TRACKER_PROJECTS)
    for proj_key, _name, _lead, created, _url, archived in TRACKER_PROJECTS:
        day = date.fromisoformat(created)
        for major in range(1, 4 if not archived else 2):
            for minor in range(rng.randint(1, 4)):
                day += timedelta(days=rng.randint(40, 160))
                released = None if day > date(2026, 11, 1) else day.isoformat()
                connection.execute(
                    "INSERT INTO release VALUES (?, ?, ?, ?)",
                    (proj_key, f"{major}.{minor}", released, int(minor == 0 and major > 1 and rng.random() < 0.5)),
                )
    connection.executemany("INSERT INTO label VALUES (?, ?, ?)", TRACKER_LABELS)


def _tracker_issue(connection: sqlite3.Connection, rng: random.Random, issue_id: int, versions: dict) -> None:
    """One issue with its assignees, labels and comments."""
    proj_key = rng.choices([p[0] for p in TRACKER_PROJECTS], [30, 25, 15, 15, 10, 5])[0]
    verb, things = rng.choice(TRACKER_WORDS)
    kind = {"Crash when": "BUG", "Slow": "BUG", "Add": "FEAT"}.get(verb, "TASK")
    opened = datetime(2024, 1, 3, 9, 0) + timedelta(days=rng.randint(0, 1000), minutes=rng.randint(0, 600))
    status = rng.choices(["OPEN", "INPROG", "REVIEW", "DONE", "WONTFIX"], [25, 12, 6, 50, 7])[0]
    closed = status in ("DONE", "WONTFIX")
    closed_at = opened + timedelta(hours=rng.randint(2, 2000)) if closed else None
    users = range(1, len(TRACKER_PEOPLE) + 1)
    connection.execute(
        "INSERT INTO issue VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (issue_id, proj_key, f"{verb} {rng.choice(things)}", kind, rng.choices([1, 2, 3, 4], [8, 25, 45, 22])[0],
         status, rng.choice(users), rng.choice(users) if closed else None,
         rng.choice(versions[proj_key]) if status == "DONE" and versions[proj_key] else None,
         opened.isoformat(sep=" ", timespec="minutes"),
         closed_at.isoformat(sep=" ", timespec="minutes") if closed_at else None,
         None if rng.random() < 0.3 else rng.choice([0.5, 1.0, 2.0, 4.0, 8.0, 16.0]), int(rng.random() < 0.1)),
    )  # fmt: skip
    for user_id in rng.sample(list(users), rng.choices([0, 1, 2], [15, 70, 15])[0]):
        connection.execute(
            "INSERT INTO issue_assignee VALUES (?, ?, ?)",
            (issue_id, user_id, (opened + timedelta(days=rng.randint(0, 10))).date().isoformat()),
        )
    for label_id in rng.sample(range(1, len(TRACKER_LABELS) + 1), rng.choice([0, 1, 1, 2])):
        connection.execute("INSERT INTO issue_label VALUES (?, ?)", (issue_id, label_id))


def _tracker_issues(connection: sqlite3.Connection, rng: random.Random) -> None:
    """80 issues and 80 comments on them."""
    versions: dict[str, list[str]] = {}
    for proj_key, version in connection.execute("SELECT proj_key, version_str FROM release"):
        versions.setdefault(proj_key, []).append(version)
    for project in TRACKER_PROJECTS:
        versions.setdefault(project[0], [])
    for issue_id in range(1001, 1081):
        _tracker_issue(connection, rng, issue_id, versions)
    opened = dict(connection.execute("SELECT issue_id, opened_ts FROM issue"))
    for comment_id in range(1, 81):
        issue_id = rng.choice(list(opened))
        posted = datetime.fromisoformat(opened[issue_id]) + timedelta(hours=rng.randint(1, 900))
        connection.execute(
            "INSERT INTO comment VALUES (?, ?, ?, ?, ?, ?, ?)",
            (comment_id, issue_id, rng.randint(1, len(TRACKER_PEOPLE)), posted.isoformat(sep=" ", timespec="minutes"),
             rng.randint(12, 1800), int(rng.random() < 0.15), int(rng.random() < 0.2)),
        )  # fmt: skip


def build_tracker_database(path: str | Path, seed: int = 35) -> Path:
    """Write the bug tracker database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, TRACKER_SCHEMA, seed) as (connection, rng):
        _tracker_setup(connection, rng)
        _tracker_issues(connection, rng)
    return Path(path)


RENTAL_SCHEMA = """
CREATE TABLE branch (
    branch_cd TEXT PRIMARY KEY,
    branch_nm TEXT NOT NULL,
    city_nm TEXT NOT NULL,
    opened_yr INTEGER,
    bay_cnt INTEGER NOT NULL,
    airport INTEGER NOT NULL,
    franchised INTEGER NOT NULL
);
CREATE TABLE veh_class (
    class_cd TEXT PRIMARY KEY,
    class_desc TEXT NOT NULL,
    seat_cnt INTEGER NOT NULL,
    day_rt REAL NOT NULL,
    deposit_amt REAL NOT NULL,
    automatic INTEGER NOT NULL
);
CREATE TABLE vehicle (
    reg_no TEXT PRIMARY KEY,
    class_cd TEXT NOT NULL REFERENCES veh_class (class_cd),
    home_branch_cd TEXT NOT NULL REFERENCES branch (branch_cd),
    make_nm TEXT NOT NULL,
    model_nm TEXT NOT NULL,
    model_yr INTEGER NOT NULL,
    fuel_cd TEXT NOT NULL,
    odo_km INTEGER NOT NULL,
    retired INTEGER NOT NULL
);
CREATE TABLE customer (
    cust_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    birth_yr INTEGER,
    licence_no TEXT NOT NULL UNIQUE,
    ctry_cd TEXT NOT NULL,
    email_addr TEXT,
    tier_lvl INTEGER,
    blacklisted INTEGER NOT NULL
);
CREATE TABLE rental (
    rental_no INTEGER PRIMARY KEY,
    cust_id INTEGER NOT NULL REFERENCES customer (cust_id),
    reg_no TEXT NOT NULL REFERENCES vehicle (reg_no),
    out_branch_cd TEXT NOT NULL REFERENCES branch (branch_cd),
    ret_branch_cd TEXT REFERENCES branch (branch_cd),
    out_dt TEXT NOT NULL,
    due_dt TEXT NOT NULL,
    ret_dt TEXT,
    out_km INTEGER NOT NULL,
    ret_km INTEGER,
    chan_cd TEXT NOT NULL,
    total_amt REAL,
    prepaid INTEGER NOT NULL
);
CREATE TABLE extra (
    extra_cd TEXT PRIMARY KEY,
    extra_desc TEXT NOT NULL,
    daily_fee REAL NOT NULL,
    max_fee REAL
);
CREATE TABLE rental_extra (
    rental_no INTEGER NOT NULL REFERENCES rental (rental_no),
    extra_cd TEXT NOT NULL REFERENCES extra (extra_cd),
    qty INTEGER NOT NULL,
    PRIMARY KEY (rental_no, extra_cd)
);
CREATE TABLE damage (
    rental_no INTEGER NOT NULL REFERENCES rental (rental_no),
    line_no INTEGER NOT NULL,
    panel_cd TEXT NOT NULL,
    severity INTEGER NOT NULL,
    repair_cost REAL,
    disputed INTEGER NOT NULL,
    PRIMARY KEY (rental_no, line_no)
);
CREATE TABLE svc_visit (
    reg_no TEXT NOT NULL REFERENCES vehicle (reg_no),
    svc_dt TEXT NOT NULL,
    svc_type_cd TEXT NOT NULL,
    garage_nm TEXT NOT NULL,
    labour_hrs REAL,
    cost_amt REAL NOT NULL,
    PRIMARY KEY (reg_no, svc_dt)
);
"""

# code, name, city, year opened, bays, airport, franchised
RENTAL_BRANCHES = [
    ("MAN-APT", "Manchester Airport", "Manchester", 2009, 140, 1, 0),
    ("MAN-PIC", "Manchester Piccadilly", "Manchester", 2012, 40, 0, 0),
    ("LPL-APT", "Liverpool Airport", "Liverpool", 2015, 80, 1, 1),
    ("LDS-CEN", "Leeds City", "Leeds", None, 35, 0, 0),
    ("EDI-APT", "Edinburgh Airport", "Edinburgh", 2011, 120, 1, 0),
    ("EDI-WAV", "Edinburgh Waverley", "Edinburgh", 2018, 25, 0, 1),
    ("GLA-CEN", "Glasgow Central", "Glasgow", None, 30, 0, 1),
]  # fmt: skip
# ACRISS-like code, description, seats, day rate, deposit, automatic
RENTAL_CLASSES = [
    ("MCMR", "Mini manual", 4, 24.0, 200.0, 0), ("ECMR", "Economy manual", 5, 29.0, 250.0, 0),
    ("CDMR", "Compact manual", 5, 34.0, 250.0, 0), ("CDAR", "Compact automatic", 5, 39.0, 300.0, 1),
    ("IDAR", "Intermediate automatic", 5, 46.0, 300.0, 1), ("SFAR", "Standard SUV automatic", 5, 62.0, 400.0, 1),
    ("PVMR", "Passenger van manual", 9, 78.0, 500.0, 0), ("LDAE", "Luxury electric", 5, 95.0, 750.0, 1),
]  # fmt: skip
RENTAL_MODELS = {
    "MCMR": [("Fiat", "500"), ("Toyota", "Aygo X")], "ECMR": [("Vauxhall", "Corsa"), ("Ford", "Fiesta")],
    "CDMR": [("Ford", "Focus"), ("Volkswagen", "Golf")], "CDAR": [("Volkswagen", "Golf"), ("Toyota", "Corolla")],
    "IDAR": [("Skoda", "Octavia"), ("Toyota", "Corolla")], "SFAR": [("Nissan", "Qashqai"), ("Kia", "Sportage")],
    "PVMR": [("Ford", "Tourneo"), ("Vauxhall", "Vivaro")], "LDAE": [("Tesla", "Model 3"), ("Polestar", "2")],
}  # fmt: skip
RENTAL_EXTRAS = [
    ("GPS", "Satellite navigation", 9.5, 60.0), ("CST", "Child seat", 7.0, 50.0), ("BST", "Booster seat", 5.0, 35.0),
    ("ADR", "Additional driver", 12.0, None), ("SNW", "Snow chains", 6.0, 40.0), ("WIFI", "Mobile hotspot", 8.0, None),
    ("SCDW", "Super collision damage waiver", 18.0, None),
]  # fmt: skip
RENTAL_FIRST = ["Aidan", "Bethany", "Callum", "Danielle", "Ewan", "Fiona", "Graham", "Hannah", "Iain", "Jasmine",
                "Kieran", "Laura", "Morag", "Nathan", "Olivia", "Priya", "Rory", "Shona", "Tariq", "Wendy"]  # fmt: skip
RENTAL_LAST = ["Anderson", "Brown", "Campbell", "Doherty", "Fraser", "Gill", "Hussain", "Kaur", "MacLeod", "Murray",
               "O'Neill", "Reid", "Robertson", "Shaw", "Stewart", "Wilson"]  # fmt: skip
RENTAL_GARAGES = ["Kwik Fit", "Halfords Autocentre", "Arnold Clark Service", "Kwik Fit", "Main Dealer"]


def _rental_fleet(connection: sqlite3.Connection, rng: random.Random) -> list[tuple]:
    """Branches, classes, extras and 90 vehicles with their service visits; returns (reg, class, branch) rows."""
    connection.executemany("INSERT INTO branch VALUES (?, ?, ?, ?, ?, ?, ?)", RENTAL_BRANCHES)
    connection.executemany("INSERT INTO veh_class VALUES (?, ?, ?, ?, ?, ?)", RENTAL_CLASSES)
    connection.executemany("INSERT INTO extra VALUES (?, ?, ?, ?)", RENTAL_EXTRAS)
    vehicles = []
    letters = "ABCDEFGHJKLMNPRSTVWXY"
    for _ in range(90):
        class_cd = rng.choices([c[0] for c in RENTAL_CLASSES], [6, 18, 16, 14, 12, 12, 6, 6])[0]
        branch_cd = rng.choices([b[0] for b in RENTAL_BRANCHES], [25, 10, 15, 10, 22, 8, 10])[0]
        make, model = rng.choice(RENTAL_MODELS[class_cd])
        year = rng.choice([2020, 2021, 2022, 2023, 2024, 2025])
        age_id = year % 100 + rng.choice([0, 50])
        reg = f"{rng.choice('SLMY')}{rng.choice(letters)}{age_id:02d} {''.join(rng.choices(letters, k=3))}"
        if any(v[0] == reg for v in vehicles):
            continue
        fuel = "E" if class_cd == "LDAE" else rng.choices(["P", "D", "H"], [60, 25, 15])[0]
        odo = (2026 - year) * rng.randint(9000, 26000) + rng.randint(0, 5000)
        retired = int(year <= 2021 and rng.random() < 0.4)
        connection.execute(
            "INSERT INTO vehicle VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (reg, class_cd, branch_cd, make, model, year, fuel, odo, retired),
        )
        vehicles.append((reg, class_cd, branch_cd))
        day = date(year, rng.randint(1, 12), rng.randint(1, 28))
        while True:
            day += timedelta(days=rng.randint(150, 400))
            if day > date(2026, 11, 1):
                break
            kind = rng.choices(["SVC", "MOT", "TYR", "BRK"], [50, 20, 20, 10])[0]
            hours = None if kind == "MOT" else round(rng.choice([0.5, 1.0, 1.5, 2.0, 3.0]), 1)
            connection.execute(
                "INSERT INTO svc_visit VALUES (?, ?, ?, ?, ?, ?)",
                (reg, day.isoformat(), kind, rng.choice(RENTAL_GARAGES), hours,
                 {"SVC": 180.0, "MOT": 54.85, "TYR": 240.0, "BRK": 310.0}[kind] + rng.choice([0, 15, 40, 85])),
            )  # fmt: skip
    return vehicles


def _rental_customers(connection: sqlite3.Connection, rng: random.Random) -> None:
    """180 customers: first and last names repeated, NULL birth years, e-mail addresses and tiers."""
    for cust_id in range(1, 181):
        first, last = rng.choice(RENTAL_FIRST), rng.choice(RENTAL_LAST)
        email = f"{first.lower()}.{last.lower().replace(chr(39), '')}{cust_id}@example.com"
        licence = (
            f"{last.upper().replace(chr(39), '')[:5]:9<5}{rng.randint(100000, 999999)}{first[0]}{rng.randint(10, 99)}"
        )
        connection.execute(
            "INSERT INTO customer VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (cust_id, first, last, None if rng.random() < 0.15 else rng.randint(1950, 2003), licence,
             rng.choices(["GB", "IE", "US", "DE", "FR", "ES", "NL"], [70, 8, 7, 5, 4, 3, 3])[0],
             None if rng.random() < 0.2 else email,
             rng.choices([None, 1, 2, 3, 4], [35, 30, 20, 10, 5])[0], int(rng.random() < 0.03)),
        )  # fmt: skip


def _rental_hire(connection: sqlite3.Connection, rng: random.Random, rental_no: int, vehicle: tuple) -> None:
    """One rental with its extras and damage lines."""
    reg, class_cd, branch_cd = vehicle
    rate = {c[0]: c[3] for c in RENTAL_CLASSES}[class_cd]
    out = date(2025, 1, 2) + timedelta(days=rng.randint(0, 680))
    days = rng.choices([1, 2, 3, 4, 5, 7, 10, 14, 21], [8, 12, 14, 12, 10, 18, 10, 10, 6])[0]
    returned = out + timedelta(days=days + rng.choices([0, 1, -1, 3], [80, 10, 7, 3])[0])
    open_hire = returned > date(2026, 11, 20)
    ret_branch = None if open_hire else rng.choices([branch_cd, rng.choice(RENTAL_BRANCHES)[0]], [85, 15])[0]
    out_km = rng.randint(5000, 90000)
    extras = rng.sample([e[0] for e in RENTAL_EXTRAS], rng.choices([0, 1, 2], [55, 35, 10])[0])
    total = None if open_hire else round(rate * days + sum(e[2] * days for e in RENTAL_EXTRAS if e[0] in extras), 2)
    connection.execute(
        "INSERT INTO rental VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (rental_no, rng.randint(1, 180), reg, branch_cd, ret_branch, out.isoformat(),
         (out + timedelta(days=days)).isoformat(), None if open_hire else returned.isoformat(), out_km,
         None if open_hire else out_km + days * rng.randint(20, 260),
         rng.choices(["WEB", "APP", "DESK", "BRK"], [45, 20, 15, 20])[0], total, int(rng.random() < 0.4)),
    )  # fmt: skip
    for extra_cd in extras:
        qty = rng.choice([1, 2]) if extra_cd in ("CST", "BST", "ADR") else 1
        connection.execute("INSERT INTO rental_extra VALUES (?, ?, ?)", (rental_no, extra_cd, qty))
    if not open_hire and rng.random() < 0.1:
        for line_no in range(1, rng.choice([1, 1, 2, 3]) + 1):
            severity = rng.choices([1, 2, 3], [60, 30, 10])[0]
            connection.execute(
                "INSERT INTO damage VALUES (?, ?, ?, ?, ?, ?)",
                (rental_no, line_no, rng.choice(["FBM", "RBM", "WSC", "DRL", "DRR", "WHL", "MIR", "RF"]), severity,
                 None if rng.random() < 0.25 else float(severity * rng.choice([90, 140, 220, 380])),
                 int(rng.random() < 0.2)),
            )  # fmt: skip


def build_rental_database(path: str | Path, seed: int = 35) -> Path:
    """Write the car rental database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, RENTAL_SCHEMA, seed) as (connection, rng):
        vehicles = _rental_fleet(connection, rng)
        _rental_customers(connection, rng)
        for rental_no in range(50001, 50701):
            _rental_hire(connection, rng, rental_no, rng.choice(vehicles))
    return Path(path)


CHARITY_SCHEMA = """
CREATE TABLE fund (
    fund_cd TEXT PRIMARY KEY,
    fund_nm TEXT NOT NULL,
    restricted INTEGER NOT NULL,
    target_amt REAL
);
CREATE TABLE campaign (
    camp_id INTEGER PRIMARY KEY,
    camp_nm TEXT NOT NULL,
    camp_yr INTEGER NOT NULL,
    fund_cd TEXT NOT NULL REFERENCES fund (fund_cd),
    chan_cd TEXT NOT NULL,
    launch_dt TEXT NOT NULL,
    close_dt TEXT,
    budget_amt REAL NOT NULL,
    goal_amt REAL
);
CREATE TABLE donor (
    donor_id INTEGER PRIMARY KEY,
    title TEXT,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    postcode TEXT,
    birth_yr INTEGER,
    gift_aid INTEGER NOT NULL,
    anonymous INTEGER NOT NULL,
    lapsed INTEGER NOT NULL,
    recruited_by_id INTEGER REFERENCES donor (donor_id)
);
CREATE TABLE donation (
    don_id INTEGER PRIMARY KEY,
    donor_id INTEGER NOT NULL REFERENCES donor (donor_id),
    camp_id INTEGER REFERENCES campaign (camp_id),
    don_dt TEXT NOT NULL,
    amt REAL NOT NULL,
    pay_cd TEXT NOT NULL,
    recurring INTEGER NOT NULL,
    ga_claimed_amt REAL,
    refunded INTEGER NOT NULL
);
CREATE TABLE volunteer (
    vol_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    phone_no TEXT,
    start_dt TEXT NOT NULL,
    dbs_checked INTEGER NOT NULL,
    hrs_per_wk REAL,
    supervisor_id INTEGER REFERENCES volunteer (vol_id)
);
CREATE TABLE event (
    evt_id INTEGER PRIMARY KEY,
    evt_nm TEXT NOT NULL,
    evt_type_cd TEXT NOT NULL,
    evt_dt TEXT NOT NULL,
    venue_nm TEXT NOT NULL,
    cap INTEGER,
    camp_id INTEGER REFERENCES campaign (camp_id),
    ticket_px REAL NOT NULL,
    outdoor INTEGER NOT NULL
);
CREATE TABLE vol_shift (
    evt_id INTEGER NOT NULL REFERENCES event (evt_id),
    vol_id INTEGER NOT NULL REFERENCES volunteer (vol_id),
    role_cd TEXT NOT NULL,
    hrs REAL NOT NULL,
    no_show INTEGER NOT NULL,
    PRIMARY KEY (evt_id, vol_id)
);
CREATE TABLE evt_reg (
    evt_id INTEGER NOT NULL REFERENCES event (evt_id),
    donor_id INTEGER NOT NULL REFERENCES donor (donor_id),
    reg_dt TEXT NOT NULL,
    party_sz INTEGER NOT NULL,
    raised_amt REAL,
    attended INTEGER NOT NULL,
    PRIMARY KEY (evt_id, donor_id)
);
CREATE TABLE grant_award (
    grant_ref TEXT PRIMARY KEY,
    fund_cd TEXT NOT NULL REFERENCES fund (fund_cd),
    partner_nm TEXT NOT NULL,
    region_cd TEXT NOT NULL,
    awarded_dt TEXT NOT NULL,
    award_amt REAL NOT NULL,
    tranche_cnt INTEGER NOT NULL,
    rpt_due_dt TEXT,
    reported INTEGER NOT NULL
);
"""

CHARITY_FUNDS = [
    ("GEN", "General Fund", 0, None), ("WTR", "Clean Water Fund", 1, 250000.0), ("EDU", "Education Fund", 1, 180000.0),
    ("EMG", "Emergency Appeal Fund", 1, None), ("HLT", "Health Clinics Fund", 1, 120000.0),
    ("LEG", "Legacy Fund", 0, None),
]  # fmt: skip
# name, fund, channel code, budget
CHARITY_CAMPAIGNS = [
    ("Winter Appeal", "GEN", "DM", 18000.0), ("Water for Life", "WTR", "TV", 65000.0),
    ("Back to School", "EDU", "DIG", 9000.0), ("Spring Raffle", "GEN", "EVT", 2500.0),
    ("Flood Response", "EMG", "DIG", 4000.0), ("Clinic Kits", "HLT", "DM", 12000.0),
]  # fmt: skip
CHARITY_FIRST = ["Alice", "Brian", "Carol", "David", "Eleanor", "Frank", "Gillian", "Henry", "Irene", "James",
                 "Katherine", "Leonard", "Margaret", "Neil", "Pauline", "Robert", "Susan", "Trevor", "Valerie",
                 "William"]  # fmt: skip
CHARITY_LAST = ["Ashworth", "Barker", "Clayton", "Dawson", "Ellis", "Fletcher", "Holt", "Jackson", "Kendall",
                "Lambert", "Mason", "Naylor", "Parker", "Shaw", "Turner", "Whitaker"]  # fmt: skip
CHARITY_EVENTS = [
    ("Fun Run", "RUN", "Heaton Park", 1), ("Charity Gala", "GALA", "The Midland Hotel", 0),
    ("Pub Quiz", "QUIZ", "The Crown", 0), ("Bake Sale", "BAKE", "St Mary's Hall", 0),
    ("Sponsored Walk", "WALK", "Dovestone Reservoir", 1), ("Fun Run", "RUN", "Sefton Park", 1),
]  # fmt: skip
CHARITY_PARTNERS = ["WaterAid Uganda", "Hope Schools Trust", "Kisumu Health Partners", "WaterAid Uganda",
                    "Sahel Relief Network", "Hope Schools Trust", "Bright Futures Malawi",
                    "Nepal Clinics Alliance"]  # fmt: skip


def _charity_postcode(rng: random.Random) -> str:
    """A Greater Manchester postcode."""
    inward = f"{rng.randint(1, 9)}{rng.choice('ABDEFGHJLNPQRSTUWXYZ')}{rng.choice('ABDEFGHJLNPQRSTUWXYZ')}"
    return f"{rng.choice(['M', 'SK', 'OL', 'BL', 'WA'])}{rng.randint(1, 40)} {inward}"


def _charity_people(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Funds, campaigns of four years, 260 donors and 45 volunteers."""
    connection.executemany("INSERT INTO fund VALUES (?, ?, ?, ?)", CHARITY_FUNDS)
    camp_id = 0
    for year in (2023, 2024, 2025, 2026):
        for name, fund_cd, chan_cd, budget in CHARITY_CAMPAIGNS:
            if name == "Flood Response" and year not in (2024, 2026):
                continue
            camp_id += 1
            launch = date(year, rng.randint(1, 10), rng.randint(1, 28))
            close = launch + timedelta(days=rng.randint(30, 120))
            connection.execute(
                "INSERT INTO campaign VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (camp_id, name, year, fund_cd, chan_cd, launch.isoformat(),
                 None if close > date(2026, 11, 1) else close.isoformat(), budget * rng.choice([0.8, 1.0, 1.2]),
                 None if fund_cd == "EMG" else budget * rng.choice([3, 4, 5])),
            )  # fmt: skip
    for donor_id in range(1, 261):
        first = rng.choice(CHARITY_FIRST)
        titles = ["Ms", "Mrs", "Miss"] if CHARITY_FIRST.index(first) % 2 == 0 else ["Mr", "Mr", "Mr"]
        title = rng.choices([None, *titles, "Dr", "Rev"], [30, 25, 15, 10, 6, 2])[0]
        connection.execute(
            "INSERT INTO donor VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (donor_id, title, first, rng.choice(CHARITY_LAST),
             None if rng.random() < 0.08 else _charity_postcode(rng),
             None if rng.random() < 0.35 else rng.randint(1938, 2000), int(rng.random() < 0.55),
             int(rng.random() < 0.06), int(rng.random() < 0.2),
             rng.randint(1, donor_id - 1) if donor_id > 20 and rng.random() < 0.12 else None),
        )  # fmt: skip
    for vol_id in range(1, 46):
        connection.execute(
            "INSERT INTO volunteer VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (vol_id, rng.choice(CHARITY_FIRST), rng.choice(CHARITY_LAST),
             None if rng.random() < 0.2 else f"07{rng.randint(100, 999)} {rng.randint(100000, 999999)}",
             (date(2016, 3, 1) + timedelta(days=rng.randint(0, 3700))).isoformat(), int(rng.random() < 0.7),
             None if rng.random() < 0.3 else rng.choice([1.5, 2.0, 3.0, 4.0, 6.0, 8.0]),
             None if vol_id <= 5 else rng.randint(1, 5)),
        )  # fmt: skip


def _charity_giving(connection: sqlite3.Connection, rng: random.Random) -> None:
    """900 donations and the grants the funds paid out."""
    campaigns = list(connection.execute("SELECT camp_id, launch_dt FROM campaign"))
    gift_aid = dict(connection.execute("SELECT donor_id, gift_aid FROM donor"))
    for don_id in range(100001, 100901):
        donor_id = rng.randint(1, 260)
        recurring = int(rng.random() < 0.3)
        if recurring or rng.random() < 0.2:
            camp_id, day = None, date(2023, 1, 5) + timedelta(days=rng.randint(0, 1400))
        else:
            camp_id, launch = rng.choice(campaigns)
            day = date.fromisoformat(launch) + timedelta(days=rng.randint(0, 60))
        amount = (
            rng.choice([5.0, 10.0, 15.0, 20.0]) if recurring else rng.choice([10.0, 25.0, 50.0, 100.0, 250.0, 1000.0])
        )
        refunded = int(rng.random() < 0.02)
        connection.execute(
            "INSERT INTO donation VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (don_id, donor_id, camp_id, day.isoformat(), amount,
             "DD" if recurring else rng.choices(["CC", "CHQ", "CASH", "PP", "BT"], [45, 10, 10, 25, 10])[0], recurring,
             round(amount * 0.25, 2) if gift_aid[donor_id] and not refunded else None, refunded),
        )  # fmt: skip
    for number in range(1, 41):
        fund_cd = rng.choice(["WTR", "EDU", "EMG", "HLT", "WTR", "GEN"])
        awarded = date(2023, 2, 1) + timedelta(days=rng.randint(0, 1350))
        due = awarded + timedelta(days=365)
        connection.execute(
            "INSERT INTO grant_award VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (f"GR-{awarded.year}-{number:03d}", fund_cd, rng.choice(CHARITY_PARTNERS),
             rng.choice(["EAF", "WAF", "SAS", "SEA"]), awarded.isoformat(),
             float(rng.choice([5, 10, 15, 25, 40, 60]) * 1000),
             rng.choice([1, 2, 2, 3, 4]), None if fund_cd == "EMG" else due.isoformat(),
             int(due < date(2026, 11, 1) and rng.random() < 0.8)),
        )  # fmt: skip


def _charity_events(connection: sqlite3.Connection, rng: random.Random) -> None:
    """24 events, their volunteers' shifts and the donors registered."""
    campaigns = [row[0] for row in connection.execute("SELECT camp_id FROM campaign")]
    for evt_id in range(1, 25):
        name, kind, venue, outdoor = rng.choice(CHARITY_EVENTS)
        day = date(2023, 3, 4) + timedelta(days=rng.randint(0, 1330))
        cap = {"RUN": 400, "GALA": 180, "QUIZ": 60, "BAKE": None, "WALK": None}[kind]
        connection.execute(
            "INSERT INTO event VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (evt_id, f"{name} {day.year}", kind, day.isoformat(), venue, cap,
             rng.choice(campaigns) if rng.random() < 0.6 else None,
             {"RUN": 20.0, "GALA": 75.0, "QUIZ": 5.0, "BAKE": 0.0, "WALK": 10.0}[kind], outdoor),
        )  # fmt: skip
        for vol_id in rng.sample(range(1, 46), rng.randint(2, 8)):
            connection.execute(
                "INSERT INTO vol_shift VALUES (?, ?, ?, ?, ?)",
                (evt_id, vol_id, rng.choice(["STW", "REG", "FA", "CATR", "MRSH"]),
                 rng.choice([2.0, 3.0, 4.0, 5.5, 8.0]), int(rng.random() < 0.08)),
            )  # fmt: skip
        sponsored = kind in ("RUN", "WALK")
        for donor_id in rng.sample(range(1, 261), rng.randint(4, 20)):
            connection.execute(
                "INSERT INTO evt_reg VALUES (?, ?, ?, ?, ?, ?)",
                (evt_id, donor_id, (day - timedelta(days=rng.randint(1, 60))).isoformat(),
                 rng.choices([1, 2, 3, 4], [55, 30, 10, 5])[0],
                 float(rng.choice([50, 120, 200, 350, 600])) if sponsored and rng.random() < 0.7 else None,
                 int(rng.random() < 0.85)),
            )  # fmt: skip


def build_charity_database(path: str | Path, seed: int = 35) -> Path:
    """Write the charity database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, CHARITY_SCHEMA, seed) as (connection, rng):
        _charity_people(connection, rng)
        _charity_giving(connection, rng)
        _charity_events(connection, rng)
    return Path(path)


ORCHESTRA_SCHEMA = """
CREATE TABLE venue (
    venue_cd TEXT PRIMARY KEY,
    venue_nm TEXT NOT NULL UNIQUE,
    city_nm TEXT NOT NULL,
    seat_cnt INTEGER,
    organ INTEGER NOT NULL
);
CREATE TABLE conductor (
    conductor_id INTEGER PRIMARY KEY,
    conductor_nm TEXT NOT NULL UNIQUE,
    nationality_cd TEXT NOT NULL,
    birth_yr INTEGER,
    principal_guest INTEGER NOT NULL
);
CREATE TABLE musician (
    musician_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    instr_cd TEXT NOT NULL,
    section_cd TEXT NOT NULL,
    desk_no INTEGER NOT NULL,
    joined_yr INTEGER NOT NULL,
    principal INTEGER NOT NULL,
    email_addr TEXT
);
CREATE TABLE composer (
    composer_id INTEGER PRIMARY KEY,
    composer_nm TEXT NOT NULL UNIQUE,
    born_yr INTEGER NOT NULL,
    died_yr INTEGER,
    nationality_cd TEXT NOT NULL
);
CREATE TABLE work (
    work_id INTEGER PRIMARY KEY,
    composer_id INTEGER NOT NULL REFERENCES composer (composer_id),
    work_ttl TEXT NOT NULL,
    catalogue_id TEXT,
    composed_yr INTEGER,
    dur_min INTEGER NOT NULL,
    players_cnt INTEGER NOT NULL,
    choral INTEGER NOT NULL
);
CREATE TABLE concert (
    concert_id INTEGER PRIMARY KEY,
    venue_cd TEXT NOT NULL REFERENCES venue (venue_cd),
    conductor_id INTEGER NOT NULL REFERENCES conductor (conductor_id),
    season_yr INTEGER NOT NULL,
    concert_dt TEXT NOT NULL,
    series_cd TEXT NOT NULL,
    soloist_nm TEXT,
    broadcast INTEGER NOT NULL,
    sold_out INTEGER NOT NULL
);
CREATE TABLE programme_item (
    concert_id INTEGER NOT NULL REFERENCES concert (concert_id),
    item_no INTEGER NOT NULL,
    work_id INTEGER NOT NULL REFERENCES work (work_id),
    encore INTEGER NOT NULL,
    PRIMARY KEY (concert_id, item_no)
);
CREATE TABLE concert_player (
    concert_id INTEGER NOT NULL REFERENCES concert (concert_id),
    musician_id INTEGER NOT NULL REFERENCES musician (musician_id),
    chair_no INTEGER NOT NULL,
    fee_amt REAL NOT NULL,
    deputy INTEGER NOT NULL,
    PRIMARY KEY (concert_id, musician_id)
);
CREATE TABLE ticket_sale (
    concert_id INTEGER NOT NULL REFERENCES concert (concert_id),
    seat_row TEXT NOT NULL,
    seat_no INTEGER NOT NULL,
    band_cd TEXT NOT NULL,
    price_amt REAL NOT NULL,
    sold_dt TEXT NOT NULL,
    subscriber INTEGER NOT NULL,
    PRIMARY KEY (concert_id, seat_row, seat_no)
);
"""

ORCH_VENUES = [
    ("SYMH", "Symphony Hall", "Birmingham", 2262, 1),
    ("BRDG", "Bridgewater Hall", "Manchester", 2341, 1),
    ("TOWN", "Leeds Town Hall", "Leeds", 1350, 1),
    ("CORN", "Corn Exchange", "Cambridge", None, 0),
    ("SAGE", "Glasshouse Hall One", "Gateshead", 1640, 0),
]
ORCH_CONDUCTORS = [
    ("Maria Lindqvist", "SE", 1971, 0), ("Tomasz Wrona", "PL", 1983, 1), ("Alice Okafor", "GB", 1989, 0),
    ("Kenji Arai", "JP", None, 0), ("Pierre-Yves Morel", "FR", 1958, 1), ("Elena Vasquez", "ES", 1977, 0),
    ("David Stern", "US", None, 0),
]  # fmt: skip
# composer, born, died, nationality, works: (title, catalogue, year, minutes, players, choral)
ORCH_COMPOSERS = [
    ("Ludwig van Beethoven", 1770, 1827, "DE", [("Symphony No. 5", "Op. 67", 1808, 33, 60, 0),
                                               ("Symphony No. 7", "Op. 92", 1812, 38, 60, 0),
                                               ("Egmont Overture", "Op. 84", 1810, 9, 56, 0),
                                               ("Piano Concerto No. 4", "Op. 58", 1806, 34, 52, 0)]),
    ("Wolfgang Amadeus Mozart", 1756, 1791, "AT", [("Symphony No. 40", "K. 550", 1788, 31, 36, 0),
                                                   ("Requiem", "K. 626", 1791, 55, 44, 1),
                                                   ("The Marriage of Figaro Overture", "K. 492", 1786, 4, 40, 0)]),
    ("Johannes Brahms", 1833, 1897, "DE", [("Symphony No. 1", "Op. 68", 1876, 46, 64, 0),
                                           ("Violin Concerto", "Op. 77", 1878, 40, 58, 0),
                                           ("Academic Festival Overture", "Op. 80", 1880, 10, 66, 0)]),
    ("Antonin Dvorak", 1841, 1904, "CZ", [("Symphony No. 9", "Op. 95", 1893, 42, 64, 0),
                                          ("Cello Concerto", "Op. 104", 1895, 40, 60, 0)]),
    ("Jean Sibelius", 1865, 1957, "FI", [("Symphony No. 5", "Op. 82", 1919, 31, 62, 0),
                                         ("Finlandia", "Op. 26", 1900, 8, 62, 0),
                                         ("Violin Concerto", "Op. 47", 1905, 31, 60, 0)]),
    ("Edward Elgar", 1857, 1934, "GB", [("Enigma Variations", "Op. 36", 1899, 30, 70, 0),
                                        ("Cello Concerto", "Op. 85", 1919, 30, 56, 0),
                                        ("The Dream of Gerontius", "Op. 38", 1900, 95, 90, 1)]),
    ("Gustav Mahler", 1860, 1911, "AT", [("Symphony No. 1", None, 1888, 55, 90, 0),
                                         ("Symphony No. 2", None, 1894, 85, 110, 1)]),
    ("Claude Debussy", 1862, 1918, "FR", [("La Mer", "L. 109", 1905, 24, 80, 0),
                                          ("Prelude to the Afternoon of a Faun", "L. 86", 1894, 10, 46, 0)]),
    ("Sergei Rachmaninoff", 1873, 1943, "RU", [("Piano Concerto No. 2", "Op. 18", 1901, 34, 62, 0),
                                               ("Symphonic Dances", "Op. 45", 1940, 35, 78, 0)]),
    ("Anna Clyne", 1980, None, "GB", [("This Midnight Hour", None, 2015, 12, 66, 0),
                                      ("Masquerade", None, 2013, 5, 60, 0)]),
    ("Thomas Ades", 1971, None, "GB", [("Asyla", "Op. 17", 1997, 24, 90, 0)]),
    ("Caroline Shaw", 1982, None, "US", [("Entr'acte", None, 2014, 11, 30, 0)]),
]  # fmt: skip
# instrument, section, players in the orchestra
ORCH_INSTRUMENTS = [("VLN", "STR", 30), ("VLA", "STR", 10), ("VC", "STR", 8), ("DB", "STR", 6), ("FL", "WW", 3),
                    ("OB", "WW", 3), ("CL", "WW", 3), ("BSN", "WW", 3), ("HN", "BR", 5), ("TPT", "BR", 3),
                    ("TBN", "BR", 3), ("TUBA", "BR", 1), ("TIMP", "PERC", 1), ("PERC", "PERC", 3),
                    ("HP", "PERC", 1)]  # fmt: skip
ORCH_FIRST = ["Alice", "Ben", "Charlotte", "Daniel", "Emily", "George", "Hannah", "James", "Katie", "Laura", "Matthew",
              "Nina", "Oliver", "Rachel", "Sophie", "Thomas", "Yuki", "Zara"]  # fmt: skip
ORCH_LAST = ["Barnes", "Chen", "Davies", "Evans", "Fletcher", "Grant", "Hughes", "Kim", "Lloyd", "Morgan", "Novak",
             "Price", "Roberts", "Turner", "Walsh", "Young"]  # fmt: skip
ORCH_SOLOISTS = ["Isata Kanneh-Mason", "Benjamin Grosvenor", "Nicola Benedetti", "Sheku Kanneh-Mason",
                 "Alina Ibragimova", "Stephen Hough", "Steven Isserlis"]  # fmt: skip
ORCH_ROWS = "ABCDEFGHJKLMNPQRST"


def _orchestra_roster(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Venues, conductors, composers with their works and about 90 musicians."""
    connection.executemany("INSERT INTO venue VALUES (?, ?, ?, ?, ?)", ORCH_VENUES)
    connection.executemany(
        "INSERT INTO conductor (conductor_nm, nationality_cd, birth_yr, principal_guest) VALUES (?, ?, ?, ?)",
        ORCH_CONDUCTORS,
    )
    for composer_id, (name, born, died, country, works) in enumerate(ORCH_COMPOSERS, start=1):
        connection.execute("INSERT INTO composer VALUES (?, ?, ?, ?, ?)", (composer_id, name, born, died, country))
        for title, catalogue, year, minutes, players, choral in works:
            connection.execute(
                "INSERT INTO work (composer_id, work_ttl, catalogue_id, composed_yr, dur_min, players_cnt, choral)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (composer_id, title, catalogue, None if rng.random() < 0.1 else year, minutes, players, choral),
            )
    musician_id = 0
    for instrument, section, count in ORCH_INSTRUMENTS:
        for seat in range(count):
            musician_id += 1
            last = rng.choice(ORCH_LAST)
            connection.execute(
                "INSERT INTO musician VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (musician_id, rng.choice(ORCH_FIRST), last, instrument, section,
                 seat // 2 + 1 if section == "STR" else seat + 1, rng.randint(1988, 2025), int(seat == 0),
                 None if rng.random() < 0.25 else f"{last.lower()}.{musician_id}@orchestra.example"),
            )  # fmt: skip


def _orchestra_concert(connection: sqlite3.Connection, rng: random.Random, concert_id: int, works: list) -> None:
    """One concert's programme, the players on stage and the tickets sold."""
    chosen = rng.sample(works, rng.choice([2, 3, 3, 4]))
    for item_no, (work_id, _players) in enumerate(chosen, start=1):
        connection.execute(
            "INSERT INTO programme_item VALUES (?, ?, ?, ?)",
            (concert_id, item_no, work_id, int(item_no == len(chosen) and rng.random() < 0.15)),
        )
    on_stage = max(players for _work, players in chosen)
    roster = connection.execute("SELECT musician_id, principal FROM musician").fetchall()
    for chair_no, (musician_id, principal) in enumerate(rng.sample(roster, min(on_stage, len(roster))), start=1):
        deputy = int(rng.random() < 0.08)
        connection.execute(
            "INSERT INTO concert_player VALUES (?, ?, ?, ?, ?)",
            (concert_id, musician_id, chair_no, 240.0 if principal else 180.0 if not deputy else 150.0, deputy),
        )
    venue = connection.execute(
        "SELECT v.seat_cnt, c.concert_dt FROM concert AS c JOIN venue AS v ON v.venue_cd = c.venue_cd"
        " WHERE c.concert_id = ?",
        (concert_id,),
    ).fetchone()
    sold = rng.randint(25, 70 if venue[0] else 40)
    seats = rng.sample([(row, number) for row in ORCH_ROWS for number in range(1, 31)], sold)
    for row, number in seats:
        band = "A" if row in "ABCDEF" else "B" if row in "GHJKLM" else "C"
        subscriber = int(rng.random() < 0.3)
        price = {"A": 48.0, "B": 36.0, "C": 22.0}[band] * (0.85 if subscriber else 1)
        when = date.fromisoformat(venue[1]) - timedelta(days=rng.randint(0, 120))
        connection.execute(
            "INSERT INTO ticket_sale VALUES (?, ?, ?, ?, ?, ?, ?)",
            (concert_id, row, number, band, round(price, 2), when.isoformat(), subscriber),
        )


def build_orchestra_database(path: str | Path, seed: int = 35) -> Path:
    """Write the orchestra database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, ORCHESTRA_SCHEMA, seed) as (connection, rng):
        _orchestra_roster(connection, rng)
        works = connection.execute("SELECT work_id, players_cnt FROM work").fetchall()
        for concert_id in range(1, 43):
            season = 2023 + (concert_id - 1) // 14
            day = date(season, 9, 15) + timedelta(days=rng.randint(0, 250))
            series = rng.choices(["MAIN", "FAM", "LATE", "TOUR"], [55, 15, 15, 15])[0]
            connection.execute(
                "INSERT INTO concert VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (concert_id, rng.choices([v[0] for v in ORCH_VENUES], [45, 15, 15, 10, 15])[0],
                 rng.randint(1, len(ORCH_CONDUCTORS)), season, day.isoformat(), series,
                 rng.choice(ORCH_SOLOISTS) if rng.random() < 0.45 else None, int(rng.random() < 0.2),
                 int(rng.random() < 0.12)),
            )  # fmt: skip
            _orchestra_concert(connection, rng, concert_id, works)
    return Path(path)


BAKERY_SCHEMA = """
CREATE TABLE shop (
    shop_cd TEXT PRIMARY KEY,
    shop_nm TEXT NOT NULL UNIQUE,
    town_nm TEXT NOT NULL,
    opened_yr INTEGER,
    oven_cnt INTEGER NOT NULL,
    cafe INTEGER NOT NULL
);
CREATE TABLE staff (
    staff_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    shop_cd TEXT NOT NULL REFERENCES shop (shop_cd),
    role_cd TEXT NOT NULL,
    hourly_rt REAL NOT NULL,
    start_dt TEXT NOT NULL,
    shift_no INTEGER NOT NULL,
    apprentice INTEGER NOT NULL
);
CREATE TABLE product (
    product_cd TEXT PRIMARY KEY,
    product_nm TEXT NOT NULL UNIQUE,
    category_cd TEXT NOT NULL,
    weight_g INTEGER NOT NULL,
    price_amt REAL NOT NULL,
    shelf_days INTEGER NOT NULL,
    vegan INTEGER NOT NULL,
    discontinued INTEGER NOT NULL
);
CREATE TABLE ingredient (
    ingredient_id INTEGER PRIMARY KEY,
    ingredient_nm TEXT NOT NULL UNIQUE,
    unit_cd TEXT NOT NULL,
    allergen_cd TEXT,
    unit_cost REAL NOT NULL,
    organic INTEGER NOT NULL
);
CREATE TABLE recipe_line (
    product_cd TEXT NOT NULL REFERENCES product (product_cd),
    ingredient_id INTEGER NOT NULL REFERENCES ingredient (ingredient_id),
    qty REAL NOT NULL,
    PRIMARY KEY (product_cd, ingredient_id)
);
CREATE TABLE bake_batch (
    shop_cd TEXT NOT NULL REFERENCES shop (shop_cd),
    bake_dt TEXT NOT NULL,
    batch_seq INTEGER NOT NULL,
    product_cd TEXT NOT NULL REFERENCES product (product_cd),
    baker_id INTEGER NOT NULL REFERENCES staff (staff_id),
    oven_no INTEGER NOT NULL,
    baked_qty INTEGER NOT NULL,
    wasted_qty INTEGER,
    PRIMARY KEY (shop_cd, bake_dt, batch_seq)
);
CREATE TABLE account (
    account_no TEXT PRIMARY KEY,
    account_nm TEXT NOT NULL,
    type_cd TEXT NOT NULL,
    postcode TEXT NOT NULL,
    vat_no TEXT,
    credit_days INTEGER NOT NULL,
    on_stop INTEGER NOT NULL
);
CREATE TABLE trade_order (
    order_id INTEGER PRIMARY KEY,
    account_no TEXT NOT NULL REFERENCES account (account_no),
    shop_cd TEXT NOT NULL REFERENCES shop (shop_cd),
    driver_id INTEGER REFERENCES staff (staff_id),
    order_dt TEXT NOT NULL,
    delivered_dt TEXT,
    standing INTEGER NOT NULL
);
CREATE TABLE order_line (
    order_id INTEGER NOT NULL REFERENCES trade_order (order_id),
    line_no INTEGER NOT NULL,
    product_cd TEXT NOT NULL REFERENCES product (product_cd),
    qty INTEGER NOT NULL,
    unit_price_amt REAL NOT NULL,
    PRIMARY KEY (order_id, line_no)
);
"""

BAKERY_SHOPS = [("HEB", "Hebden Bridge", "Hebden Bridge", 2009, 3, 1), ("TOD", "Todmorden", "Todmorden", 2014, 2, 0),
                ("HX1", "Halifax Piece Hall", "Halifax", 2017, 2, 1), ("HX2", "Halifax King Cross", "Halifax", None,
                1, 0), ("SOW", "Sowerby Bridge", "Sowerby Bridge", 2021, 2, 1)]  # fmt: skip
# code, name, category, grams, price, shelf days, vegan, discontinued
BAKERY_PRODUCTS = [
    ("SD-800", "White sourdough", "BRD", 800, 4.20, 3, 1, 0),
    ("SD-400", "Small white sourdough", "BRD", 400, 2.60, 3, 1, 0), ("RYE-750", "Dark rye", "BRD", 750, 4.50, 5, 1, 0),
    ("SEED-800", "Seeded spelt", "BRD", 800, 4.80, 3, 1, 0), ("BAG-250", "Baguette", "BRD", 250, 1.90, 1, 1, 0),
    ("FOC-500", "Rosemary focaccia", "BRD", 500, 3.80, 2, 1, 0),
    ("WHM-800", "Wholemeal tin", "BRD", 800, 3.40, 4, 1, 0), ("BRI-400", "Brioche loaf", "BRD", 400, 3.90, 4, 0, 0),
    ("CRO-1", "Butter croissant", "PAST", 80, 1.80, 1, 0, 0), ("PAC-1", "Pain au chocolat", "PAST", 90, 2.10, 1, 0, 0),
    ("CIN-1", "Cinnamon bun", "PAST", 120, 2.60, 2, 0, 0), ("CAR-1", "Cardamom knot", "PAST", 110, 2.80, 2, 0, 0),
    ("ALM-1", "Almond croissant", "PAST", 110, 2.90, 1, 0, 0), ("DAN-1", "Apricot danish", "PAST", 100, 2.50, 1, 0, 1),
    ("VCR-1", "Vegan croissant", "PAST", 80, 2.00, 1, 1, 0), ("BRN-SQ", "Chocolate brownie", "CAKE", 90, 2.70, 4, 0, 0),
    ("LEM-SL", "Lemon drizzle slice", "CAKE", 100, 2.40, 3, 0, 0),
    ("CAR-SL", "Carrot cake slice", "CAKE", 120, 3.10, 3, 0, 0),
    ("VIC-20", "Victoria sponge", "CAKE", 900, 18.00, 3, 0, 0), ("FLP-1", "Flapjack", "CAKE", 85, 2.20, 6, 1, 0),
    ("PAR-1", "Parkin", "CAKE", 80, 2.00, 7, 0, 1), ("SAU-1", "Sausage roll", "SAV", 150, 2.90, 1, 0, 0),
    ("VSR-1", "Vegan sausage roll", "SAV", 150, 2.90, 1, 1, 0),
    ("PIE-CS", "Cheese and onion pasty", "SAV", 200, 3.60, 1, 0, 0),
    ("QCH-1", "Leek quiche slice", "SAV", 160, 3.80, 2, 0, 0),
]  # fmt: skip
# name, unit, allergen, cost per unit, organic
BAKERY_INGREDIENTS = [
    ("Strong white flour", "KG", "GLU", 0.95, 0), ("Stoneground wholemeal flour", "KG", "GLU", 1.10, 1),
    ("Dark rye flour", "KG", "GLU", 1.40, 1), ("Spelt flour", "KG", "GLU", 1.90, 1),
    ("Plain flour", "KG", "GLU", 0.70, 0), ("Sea salt", "KG", None, 1.20, 0), ("Fresh yeast", "KG", None, 3.50, 0),
    ("Sourdough starter", "KG", "GLU", 0.40, 1), ("Unsalted butter", "KG", "MLK", 7.80, 0),
    ("Whole milk", "L", "MLK", 1.05, 1), ("Free-range eggs", "EA", "EGG", 0.28, 0),
    ("Caster sugar", "KG", None, 1.30, 0), ("Dark chocolate", "KG", "MLK", 11.50, 0),
    ("Ground almonds", "KG", "NUT", 9.20, 0), ("Cinnamon", "KG", None, 14.00, 1), ("Cardamom", "KG", None, 38.00, 1),
    ("Lemons", "EA", None, 0.35, 0), ("Carrots", "KG", None, 0.80, 1), ("Rolled oats", "KG", "GLU", 1.60, 1),
    ("Golden syrup", "KG", None, 2.10, 0), ("Pork sausage meat", "KG", None, 6.40, 0),
    ("Mature cheddar", "KG", "MLK", 8.90, 0), ("Sesame seeds", "KG", "SES", 6.00, 0),
    ("Rosemary", "KG", None, 22.00, 1), ("Oat milk", "L", "GLU", 1.60, 0), ("Vegan butter", "KG", None, 6.20, 0),
]  # fmt: skip
BAKERY_FIRST = ["Amy", "Callum", "Chloe", "Dean", "Ellie", "Jordan", "Kirsty", "Liam", "Megan", "Nathan", "Shannon",
                "Tom", "Zainab", "Bilal"]  # fmt: skip
BAKERY_LAST = ["Ackroyd", "Barraclough", "Crowther", "Greenwood", "Hirst", "Holroyd", "Sutcliffe", "Shah", "Uttley",
               "Wood"]  # fmt: skip
BAKERY_ACCOUNTS = ["The Book Case Cafe", "Hebden Hostel", "Calder Valley Deli", "Todmorden Primary School",
                   "The Shoulder of Mutton", "Riverside Cafe", "Heptonstall Hotel", "Square Chapel Arts Centre",
                   "The Packhorse Inn", "Moorcock Inn", "Halifax Minster Cafe", "Riverside Cafe", "Grub and Grog",
                   "Ripponden Old Bridge Inn", "Woodhouse Nursery", "Calderdale College", "The Fat Goose",
                   "Mytholm Works Canteen", "Luddenden Foot Stores", "The Old Co-op"]  # fmt: skip


def _bakery_setup(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Shops, products, ingredients, recipes, 46 staff and the trade accounts."""
    connection.executemany("INSERT INTO shop VALUES (?, ?, ?, ?, ?, ?)", BAKERY_SHOPS)
    connection.executemany("INSERT INTO product VALUES (?, ?, ?, ?, ?, ?, ?, ?)", BAKERY_PRODUCTS)
    connection.executemany(
        "INSERT INTO ingredient (ingredient_nm, unit_cd, allergen_cd, unit_cost, organic) VALUES (?, ?, ?, ?, ?)",
        BAKERY_INGREDIENTS,
    )
    names = [row[0] for row in BAKERY_INGREDIENTS]
    for code, _name, category, grams, *_rest in BAKERY_PRODUCTS:
        base = {"BRD": [0, 5, 7], "PAST": [4, 8, 9, 11], "CAKE": [4, 8, 10, 11], "SAV": [4, 8, 5]}[category]
        extra = rng.sample(range(len(names)), rng.randint(1, 3))
        for index in sorted(set(base + extra)):
            unit = BAKERY_INGREDIENTS[index][1]
            qty = rng.randint(1, 4) if unit == "EA" else round(grams / 1000 * rng.uniform(0.02, 0.6), 3)
            connection.execute("INSERT INTO recipe_line VALUES (?, ?, ?)", (code, index + 1, qty))
    for staff_id in range(1, 47):
        role = rng.choices(["BAKR", "COUN", "MGR", "DRV"], [35, 40, 10, 15])[0]
        connection.execute(
            "INSERT INTO staff VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (staff_id, rng.choice(BAKERY_FIRST), rng.choice(BAKERY_LAST), rng.choice(BAKERY_SHOPS)[0], role,
             {"BAKR": 12.60, "COUN": 11.44, "MGR": 14.80, "DRV": 12.10}[role] + rng.choice([0, 0, 0.5, 1.0]),
             (date(2012, 1, 1) + timedelta(days=rng.randint(0, 5000))).isoformat(), rng.randint(4, 22),
             int(role in ("BAKR", "COUN") and rng.random() < 0.2)),
        )  # fmt: skip
    for number, name in enumerate(BAKERY_ACCOUNTS, start=1):
        school = "School" in name or "Nursery" in name or "College" in name
        kind = "SCH" if school else rng.choice(["CAFE", "PUB", "HTL", "SHOP"])
        letters = "ABDEFGHJLNPQRSTUWXYZ"
        postcode = f"HX{rng.randint(1, 7)} {rng.randint(1, 9)}{rng.choice(letters)}{rng.choice(letters)}"
        connection.execute(
            "INSERT INTO account VALUES (?, ?, ?, ?, ?, ?, ?)",
            (f"T{number:04d}", name, kind, postcode,
             None if kind == "SCH" or rng.random() < 0.3 else f"GB{rng.randint(100000000, 999999999)}",
             rng.choice([7, 14, 14, 30]), int(rng.random() < 0.1)),
        )  # fmt: skip


def _bakery_trade(connection: sqlite3.Connection, rng: random.Random) -> None:
    """About 1,400 bake batches over eight weeks, 360 trade orders and their lines."""
    bakers = {}
    for staff_id, shop, role in connection.execute("SELECT staff_id, shop_cd, role_cd FROM staff"):
        if role in ("BAKR", "MGR"):
            bakers.setdefault(shop, []).append(staff_id)
    drivers = [row[0] for row in connection.execute("SELECT staff_id FROM staff WHERE role_cd = 'DRV'")]
    live = [row for row in BAKERY_PRODUCTS if not row[7]]
    for shop, _name, _town, _year, ovens, _cafe in BAKERY_SHOPS:
        for day in range(0, 56, 2 if ovens == 1 else 1):
            when = date(2026, 9, 1) + timedelta(days=day)
            if when.weekday() == 0:
                continue
            for batch_seq, product in enumerate(rng.sample(live, rng.randint(2, 3 + ovens)), start=1):
                baked = rng.choice([12, 24, 24, 36, 48]) if product[3] < 300 else rng.choice([10, 20, 30])
                connection.execute(
                    "INSERT INTO bake_batch VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (shop, when.isoformat(), batch_seq, product[0], rng.choice(bakers.get(shop) or [1]),
                     rng.randint(1, ovens), baked, None if when > date(2026, 10, 24) else rng.randint(0, baked // 4)),
                )  # fmt: skip
    accounts = [row[0] for row in connection.execute("SELECT account_no FROM account")]
    for order_id in range(1, 361):
        ordered = date(2026, 9, 1) + timedelta(days=rng.randint(0, 55))
        connection.execute(
            "INSERT INTO trade_order VALUES (?, ?, ?, ?, ?, ?, ?)",
            (order_id, rng.choice(accounts), rng.choice(BAKERY_SHOPS)[0],
             rng.choice(drivers) if drivers and rng.random() < 0.8 else None, ordered.isoformat(),
             None if ordered > date(2026, 10, 22) else (ordered + timedelta(days=rng.choice([1, 1, 2]))).isoformat(),
             int(rng.random() < 0.4)),
        )  # fmt: skip
        for line_no, product in enumerate(rng.sample(live, rng.randint(1, 5)), start=1):
            connection.execute(
                "INSERT INTO order_line VALUES (?, ?, ?, ?, ?)",
                (order_id, line_no, product[0], rng.choice([6, 12, 12, 24, 30]), round(product[4] * 0.7, 2)),
            )


def build_bakery_database(path: str | Path, seed: int = 35) -> Path:
    """Write the bakery database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, BAKERY_SCHEMA, seed) as (connection, rng):
        _bakery_setup(connection, rng)
        _bakery_trade(connection, rng)
    return Path(path)


PHARMACY_SCHEMA = """
CREATE TABLE branch (
    branch_cd TEXT PRIMARY KEY,
    branch_nm TEXT NOT NULL,
    town_nm TEXT NOT NULL,
    open_yr INTEGER,
    consult_rm INTEGER NOT NULL,
    drive_thru INTEGER NOT NULL
);
CREATE TABLE staff (
    staff_id INTEGER PRIMARY KEY,
    branch_cd TEXT NOT NULL REFERENCES branch (branch_cd),
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    role_cd TEXT NOT NULL,
    gphc_no TEXT,
    hourly_rt REAL NOT NULL,
    start_dt TEXT NOT NULL,
    locum INTEGER NOT NULL,
    ind_prescriber INTEGER NOT NULL
);
CREATE TABLE patient (
    pat_id INTEGER PRIMARY KEY,
    nhs_no TEXT NOT NULL UNIQUE,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    birth_dt TEXT,
    sex_cd TEXT NOT NULL,
    postcode TEXT NOT NULL,
    exempt_cd TEXT,
    nom_branch_cd TEXT REFERENCES branch (branch_cd),
    sms_consent INTEGER NOT NULL
);
CREATE TABLE prescriber (
    presc_id INTEGER PRIMARY KEY,
    presc_nm TEXT NOT NULL,
    practice_nm TEXT NOT NULL,
    ods_cd TEXT NOT NULL,
    presc_type_cd TEXT NOT NULL,
    private INTEGER NOT NULL
);
CREATE TABLE drug (
    drug_cd TEXT PRIMARY KEY,
    generic_nm TEXT NOT NULL,
    brand_nm TEXT,
    form_cd TEXT NOT NULL,
    strength_mg REAL,
    pack_sz INTEGER NOT NULL,
    pack_cost REAL NOT NULL,
    cd_schedule INTEGER,
    otc INTEGER NOT NULL,
    fridge INTEGER NOT NULL
);
CREATE TABLE stock_lvl (
    branch_cd TEXT NOT NULL REFERENCES branch (branch_cd),
    drug_cd TEXT NOT NULL REFERENCES drug (drug_cd),
    on_hand_qty INTEGER NOT NULL,
    reorder_lvl INTEGER NOT NULL,
    bin_loc TEXT,
    PRIMARY KEY (branch_cd, drug_cd)
);
CREATE TABLE rx (
    rx_id INTEGER PRIMARY KEY,
    pat_id INTEGER NOT NULL REFERENCES patient (pat_id),
    presc_id INTEGER NOT NULL REFERENCES prescriber (presc_id),
    branch_cd TEXT NOT NULL REFERENCES branch (branch_cd),
    issued_dt TEXT NOT NULL,
    dispensed_dt TEXT,
    repeat_no INTEGER NOT NULL,
    status_cd TEXT NOT NULL,
    eps INTEGER NOT NULL,
    collected INTEGER NOT NULL
);
CREATE TABLE rx_item (
    rx_id INTEGER NOT NULL REFERENCES rx (rx_id),
    line_no INTEGER NOT NULL,
    drug_cd TEXT NOT NULL REFERENCES drug (drug_cd),
    qty INTEGER NOT NULL,
    days_sup INTEGER,
    dose_txt TEXT NOT NULL,
    owing INTEGER NOT NULL,
    substituted INTEGER NOT NULL,
    PRIMARY KEY (rx_id, line_no)
);
CREATE TABLE rx_check (
    rx_id INTEGER NOT NULL REFERENCES rx (rx_id),
    staff_id INTEGER NOT NULL REFERENCES staff (staff_id),
    stage_cd TEXT NOT NULL,
    chk_ts TEXT NOT NULL,
    PRIMARY KEY (rx_id, staff_id)
);
"""

PHARM_BRANCHES = [
    ("BRS01", "Redland Pharmacy", "Bristol", 1998, 1, 0), ("BRS02", "Fishponds Pharmacy", "Bristol", 2006, 1, 0),
    ("BTH01", "Widcombe Chemist", "Bath", None, 0, 0), ("CDF01", "Roath Pharmacy", "Cardiff", 2011, 1, 1),
    ("CDF02", "Canton Pharmacy", "Cardiff", 2019, 1, 0), ("SWI01", "Old Town Pharmacy", "Swindon", 2015, 0, 1),
]  # fmt: skip
# code, generic name, brand, form, strength mg, pack size, pack cost, CD schedule, OTC, fridge
PHARM_DRUGS = [
    ("AML5T", "Amlodipine", None, "TAB", 5, 28, 0.89, None, 0, 0),
    ("AML10T", "Amlodipine", None, "TAB", 10, 28, 0.95, None, 0, 0),
    ("ATV20T", "Atorvastatin", "Lipitor", "TAB", 20, 28, 1.12, None, 0, 0),
    ("ATV40T", "Atorvastatin", None, "TAB", 40, 28, 1.30, None, 0, 0),
    ("MET500T", "Metformin", None, "TAB", 500, 84, 1.45, None, 0, 0),
    ("OME20C", "Omeprazole", "Losec", "CAP", 20, 28, 0.98, None, 0, 0),
    ("LAN30C", "Lansoprazole", None, "CAP", 30, 28, 1.05, None, 0, 0),
    ("RAM5C", "Ramipril", None, "CAP", 5, 28, 1.20, None, 0, 0),
    ("LEV100T", "Levothyroxine", None, "TAB", 0.1, 28, 1.60, None, 0, 0),
    ("SAL100I", "Salbutamol", "Ventolin", "INH", 0.1, 1, 1.50, None, 0, 0),
    ("BEC100I", "Beclometasone", "Clenil", "INH", 0.1, 1, 7.42, None, 0, 0),
    ("PAR500T", "Paracetamol", None, "TAB", 500, 32, 0.75, None, 1, 0),
    ("IBU400T", "Ibuprofen", None, "TAB", 400, 24, 0.82, None, 1, 0),
    ("CET10T", "Cetirizine", None, "TAB", 10, 30, 0.65, None, 1, 0),
    ("COD30T", "Codeine", None, "TAB", 30, 28, 1.90, 5, 0, 0),
    ("COC30T", "Co-codamol", "Solpadol", "TAB", 30, 100, 3.10, 5, 0, 0),
    ("TRA50C", "Tramadol", None, "CAP", 50, 100, 2.40, 3, 0, 0),
    ("MOR10L", "Morphine sulfate", "Oramorph", "LIQ", 2, 1, 1.95, 5, 0, 0),
    ("MOR10T", "Morphine sulfate", "Zomorph", "CAP", 10, 60, 3.47, 2, 0, 0),
    ("DIA5T", "Diazepam", None, "TAB", 5, 28, 0.92, 4, 0, 0),
    ("ZOP75T", "Zopiclone", None, "TAB", 7.5, 28, 0.99, 4, 0, 0),
    ("MPH10T", "Methylphenidate", "Ritalin", "TAB", 10, 30, 5.60, 2, 0, 0),
    ("INS100J", "Insulin glargine", "Lantus", "INJ", None, 5, 34.80, None, 0, 1),
    ("INA100J", "Insulin aspart", "NovoRapid", "INJ", None, 5, 28.31, None, 0, 1),
    ("ADA40J", "Adalimumab", "Humira", "INJ", 40, 2, 633.60, None, 0, 1),
    ("AMX500C", "Amoxicillin", None, "CAP", 500, 21, 1.02, None, 0, 0),
    ("AMX250L", "Amoxicillin", None, "LIQ", 50, 1, 1.58, None, 0, 0),
    ("CLA500T", "Clarithromycin", None, "TAB", 500, 14, 1.85, None, 0, 0),
    ("DOX100C", "Doxycycline", None, "CAP", 100, 8, 1.20, None, 0, 0),
    ("SER50T", "Sertraline", None, "TAB", 50, 28, 1.10, None, 0, 0),
    ("CIT20T", "Citalopram", None, "TAB", 20, 28, 0.90, None, 0, 0),
    ("MIR15T", "Mirtazapine", None, "TAB", 15, 28, 1.25, None, 0, 0),
    ("WAR1T", "Warfarin", None, "TAB", 1, 28, 0.95, None, 0, 0),
    ("APX5T", "Apixaban", "Eliquis", "TAB", 5, 56, 53.20, None, 0, 0),
    ("EMO500C", "Emollient cream", "Diprobase", "CRM", None, 1, 6.32, None, 1, 0),
    ("HYD1C", "Hydrocortisone", None, "CRM", None, 1, 2.10, None, 1, 0),
    ("LAT5E", "Latanoprost", "Xalatan", "EYE", None, 1, 3.20, None, 0, 1),
    ("CHL5E", "Chloramphenicol", None, "EYE", None, 1, 1.90, None, 1, 0),
]  # fmt: skip
PHARM_FIRST = ["Aaliyah", "Ben", "Carys", "Daniel", "Efa", "Faisal", "Gemma", "Hassan", "Ioan", "Jasmine", "Kieran",
               "Leah", "Mohammed", "Nia", "Oliver", "Priya", "Rhys", "Sophie", "Tomos", "Yasmin"]  # fmt: skip
PHARM_LAST = ["Ahmed", "Baker", "Davies", "Edwards", "Hughes", "Jones", "Khan", "Lewis", "Morgan", "Patel", "Phillips",
              "Roberts", "Shah", "Thomas", "Walker", "Williams"]  # fmt: skip
PHARM_PRACTICES = [
    ("Whiteladies Medical Group", "L81004"), ("Fishponds Family Practice", "L81027"), ("Widcombe Surgery", "L81612"),
    ("Roath Health Centre", "W97016"), ("Canton Medical Centre", "W97033"), ("Taw Hill Surgery", "J83009"),
]  # fmt: skip
PHARM_DOSES = ["1 daily", "1 twice daily", "1 three times daily", "2 at night", "as directed", "1-2 when required",
               "2 puffs when required", "5ml three times daily"]  # fmt: skip


def _pharmacy_people(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Branches, 42 staff, 26 prescribers and 160 patients."""
    connection.executemany("INSERT INTO branch VALUES (?, ?, ?, ?, ?, ?)", PHARM_BRANCHES)
    for staff_id in range(1, 43):
        role = rng.choices(["PHM", "TECH", "DSP", "MCA", "MGR"], [12, 8, 10, 9, 3])[0]
        registered = role in ("PHM", "TECH")
        connection.execute(
            "INSERT INTO staff VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (staff_id, PHARM_BRANCHES[staff_id % 6][0], rng.choice(PHARM_FIRST), rng.choice(PHARM_LAST), role,
             f"{rng.randint(2030000, 2299999)}" if registered else None,
             {"PHM": 27.5, "TECH": 15.2, "DSP": 12.1, "MCA": 11.44, "MGR": 19.0}[role] + rng.choice([0.0, 0.0, 0.75]),
             (date(2009, 9, 1) + timedelta(days=rng.randint(0, 6000))).isoformat(),
             int(role == "PHM" and rng.random() < 0.35), int(role == "PHM" and rng.random() < 0.3)),
        )  # fmt: skip
    for presc_id in range(1, 27):
        kind = rng.choices(["GP", "NP", "DEN", "PHM"], [16, 5, 3, 2])[0]
        practice, ods = rng.choice(PHARM_PRACTICES)
        title = {"GP": "Dr", "DEN": "Dr", "NP": "Nurse", "PHM": "Pharmacist"}[kind]
        connection.execute(
            "INSERT INTO prescriber VALUES (?, ?, ?, ?, ?, ?)",
            (presc_id, f"{title} {rng.choice(PHARM_FIRST)[0]} {rng.choice(PHARM_LAST)}", practice, ods, kind,
             int(rng.random() < 0.12)),
        )  # fmt: skip
    for pat_id in range(1, 161):
        born = None if rng.random() < 0.08 else date(1932, 1, 1) + timedelta(days=rng.randint(0, 33000))
        age = 2026 - born.year if born else 40
        exempt = "A" if age >= 60 else "B" if age < 16 else rng.choice([None, None, None, "E", "F", "D"])
        connection.execute(
            "INSERT INTO patient VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (pat_id, f"{rng.randint(400, 499)}{rng.randint(1000000, 9999999)}", rng.choice(PHARM_FIRST),
             rng.choice(PHARM_LAST), born.isoformat() if born else None, rng.choice(["F", "F", "M", "M", "U"]),
             f"{rng.choice(['BS6', 'BS16', 'BA2', 'CF24', 'CF5', 'SN1'])} {rng.randint(1, 9)}"
             f"{rng.choice('ABDEFGHJLNPQRSTUWXY')}{rng.choice('ABDEFGHJLNPQRSTUWXY')}",
             exempt, None if rng.random() < 0.15 else rng.choice(PHARM_BRANCHES)[0], int(rng.random() < 0.6)),
        )  # fmt: skip


def _pharmacy_stock(connection: sqlite3.Connection, rng: random.Random) -> None:
    """The drug list and each branch's stock of most of it."""
    connection.executemany("INSERT INTO drug VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", PHARM_DRUGS)
    for branch in PHARM_BRANCHES:
        for drug in PHARM_DRUGS:
            if rng.random() < 0.3:
                continue
            connection.execute(
                "INSERT INTO stock_lvl VALUES (?, ?, ?, ?, ?)",
                (branch[0], drug[0], rng.choice([0, 1, 2, 3, 4, 6, 8, 10, 12, 20]), rng.choice([1, 2, 2, 3, 5]),
                 None if drug[9] or rng.random() < 0.2 else f"{rng.choice('ABCDEF')}{rng.randint(1, 12)}"),
            )  # fmt: skip


def _pharmacy_rx(connection: sqlite3.Connection, rng: random.Random) -> None:
    """300 prescriptions, their items and the checks made on those dispensed."""
    staff: dict[str, list[tuple[int, str]]] = {}
    for staff_id, branch_cd, role in connection.execute("SELECT staff_id, branch_cd, role_cd FROM staff"):
        staff.setdefault(branch_cd, []).append((staff_id, role))
    nominated = dict(connection.execute("SELECT pat_id, nom_branch_cd FROM patient"))
    for rx_id in range(50001, 50301):
        pat_id = rng.choice(list(nominated))
        branch_cd = nominated[pat_id] or rng.choice(PHARM_BRANCHES)[0]
        issued = date(2026, 8, 1) + timedelta(days=rng.randint(0, 110))
        status = rng.choices(["DSP", "OWE", "PND", "CNL"], [70, 8, 15, 7])[0]
        dispensed = issued + timedelta(days=rng.randint(0, 4)) if status in ("DSP", "OWE") else None
        connection.execute(
            "INSERT INTO rx VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (rx_id, pat_id, rng.randint(1, 26), branch_cd, issued.isoformat(),
             dispensed.isoformat() if dispensed else None, rng.choices(range(7), [40, 12, 12, 10, 10, 8, 8])[0],
             status, int(rng.random() < 0.85), int(status == "DSP" and rng.random() < 0.9)),
        )  # fmt: skip
        for line_no, drug in enumerate(rng.sample(PHARM_DRUGS, rng.choices([1, 2, 3, 4], [50, 30, 14, 6])[0]), 1):
            connection.execute(
                "INSERT INTO rx_item VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (rx_id, line_no, drug[0], drug[5] * rng.choice([1, 1, 1, 2]),
                 None if drug[3] in ("CRM", "EYE", "INH") else rng.choice([7, 14, 28, 28, 56]),
                 rng.choice(PHARM_DOSES), int(status == "OWE" and line_no == 1), int(rng.random() < 0.06)),
            )  # fmt: skip
        if dispensed:
            team = staff[branch_cd]
            checkers = rng.sample(team, min(len(team), rng.choice([1, 2, 2])))
            for staff_id, role in checkers:
                connection.execute(
                    "INSERT INTO rx_check VALUES (?, ?, ?, ?)",
                    (rx_id, staff_id, "CLIN" if role == "PHM" else "ACC",
                     f"{dispensed.isoformat()} {rng.randint(9, 18):02d}:{rng.choice(['05', '20', '35', '50'])}"),
                )  # fmt: skip


def build_pharmacy_database(path: str | Path, seed: int = 35) -> Path:
    """Write the pharmacy chain database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, PHARMACY_SCHEMA, seed) as (connection, rng):
        _pharmacy_people(connection, rng)
        _pharmacy_stock(connection, rng)
        _pharmacy_rx(connection, rng)
    return Path(path)


MARINA_SCHEMA = """
CREATE TABLE pontoon (
    pontoon_cd TEXT PRIMARY KEY,
    berth_cnt INTEGER NOT NULL,
    max_loa_m REAL NOT NULL,
    shore_pwr INTEGER NOT NULL,
    fuel INTEGER NOT NULL,
    visitor INTEGER NOT NULL
);
CREATE TABLE berth (
    pontoon_cd TEXT NOT NULL REFERENCES pontoon (pontoon_cd),
    berth_no INTEGER NOT NULL,
    max_loa_m REAL NOT NULL,
    max_beam_m REAL NOT NULL,
    depth_m REAL NOT NULL,
    pwr_amps INTEGER,
    finger INTEGER NOT NULL,
    PRIMARY KEY (pontoon_cd, berth_no)
);
CREATE TABLE owner (
    owner_id INTEGER PRIMARY KEY,
    title TEXT,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    email_addr TEXT,
    phone_no TEXT,
    ctry_cd TEXT NOT NULL,
    club_mbr INTEGER NOT NULL
);
CREATE TABLE vessel (
    vessel_id INTEGER PRIMARY KEY,
    vessel_nm TEXT NOT NULL,
    type_cd TEXT NOT NULL,
    loa_m REAL NOT NULL,
    beam_m REAL NOT NULL,
    draft_m REAL NOT NULL,
    built_yr INTEGER,
    engine_hp INTEGER,
    mmsi TEXT,
    insured INTEGER NOT NULL,
    liveaboard INTEGER NOT NULL
);
CREATE TABLE vessel_owner (
    vessel_id INTEGER NOT NULL REFERENCES vessel (vessel_id),
    owner_id INTEGER NOT NULL REFERENCES owner (owner_id),
    share_pct INTEGER NOT NULL,
    primary_contact INTEGER NOT NULL,
    PRIMARY KEY (vessel_id, owner_id)
);
CREATE TABLE staff (
    staff_id INTEGER PRIMARY KEY,
    full_nm TEXT NOT NULL,
    role_cd TEXT NOT NULL,
    start_dt TEXT NOT NULL,
    vhf_cert INTEGER NOT NULL,
    seasonal INTEGER NOT NULL
);
CREATE TABLE berth_alloc (
    alloc_id INTEGER PRIMARY KEY,
    vessel_id INTEGER NOT NULL REFERENCES vessel (vessel_id),
    pontoon_cd TEXT NOT NULL,
    berth_no INTEGER NOT NULL,
    contract_cd TEXT NOT NULL,
    start_dt TEXT NOT NULL,
    end_dt TEXT,
    fee_amt REAL NOT NULL,
    auto_renew INTEGER NOT NULL,
    FOREIGN KEY (pontoon_cd, berth_no) REFERENCES berth (pontoon_cd, berth_no)
);
CREATE TABLE visit_rec (
    visit_id INTEGER PRIMARY KEY,
    vessel_id INTEGER NOT NULL REFERENCES vessel (vessel_id),
    pontoon_cd TEXT NOT NULL,
    berth_no INTEGER NOT NULL,
    checkin_staff_id INTEGER NOT NULL REFERENCES staff (staff_id),
    arr_ts TEXT NOT NULL,
    dep_ts TEXT,
    nights INTEGER,
    fee_amt REAL NOT NULL,
    paid INTEGER NOT NULL,
    FOREIGN KEY (pontoon_cd, berth_no) REFERENCES berth (pontoon_cd, berth_no)
);
CREATE TABLE fuel_sale (
    sale_id INTEGER PRIMARY KEY,
    vessel_id INTEGER NOT NULL REFERENCES vessel (vessel_id),
    staff_id INTEGER NOT NULL REFERENCES staff (staff_id),
    sale_ts TEXT NOT NULL,
    fuel_cd TEXT NOT NULL,
    ltrs REAL NOT NULL,
    ppl REAL NOT NULL,
    duty_paid INTEGER NOT NULL
);
"""

# code, berths, longest boat (m), shore power, fuel, visitor
MARINA_PONTOONS = [
    ("A", 24, 12.0, 1, 0, 0), ("B", 24, 12.0, 1, 0, 0), ("C", 30, 15.0, 1, 0, 0), ("D", 20, 18.0, 1, 0, 0),
    ("E", 16, 14.0, 1, 0, 1), ("F", 8, 24.0, 0, 1, 1),
]  # fmt: skip
MARINA_BOATS = ["Serenity", "Blue Moon", "Kittiwake", "Sea Breeze", "Wanderer", "Halcyon", "Osprey", "Spindrift",
                "Curlew", "Aurora", "Free Spirit", "Dunlin", "Maverick", "Puffin", "Sirius", "Tern", "Zephyr",
                "Moonshadow", "Second Wind", "Shearwater"]  # fmt: skip
MARINA_FIRST = ["Alan", "Bridget", "Callum", "Deborah", "Edward", "Fiona", "Graham", "Helen", "Ian", "Janet",
                "Keith", "Lorna", "Malcolm", "Nicola", "Peter", "Ruth", "Stuart", "Wendy"]  # fmt: skip
MARINA_LAST = ["Anderson", "Boyd", "Campbell", "Fraser", "Grant", "Hamilton", "Kerr", "MacLeod", "Murray", "Reid",
               "Ross", "Scott", "Stewart", "Watson", "Wilson", "Young"]  # fmt: skip
MARINA_STAFF = [
    ("Iain Duncan", "HM", 1), ("Morag Bell", "DHM", 1), ("Craig Munro", "BH", 1), ("Kirsty Shaw", "BH", 1),
    ("Euan Kerr", "BH", 0), ("Ailsa Grant", "BH", 0), ("Rory Paterson", "BH", 1), ("Shona Reid", "OFF", 0),
    ("Gordon Ross", "OFF", 0), ("Fraser Gow", "ENG", 0), ("Lewis Ritchie", "BH", 1), ("Eilidh Moir", "BH", 0),
    ("Kirsty Shaw", "OFF", 0), ("Struan Hay", "BH", 1),
]  # fmt: skip


def _marina_fleet(connection: sqlite3.Connection, rng: random.Random) -> list[tuple]:
    """Pontoons and their berths, 130 owners, 140 vessels and who owns them; the vessels' (id, length)."""
    connection.executemany("INSERT INTO pontoon VALUES (?, ?, ?, ?, ?, ?)", MARINA_PONTOONS)
    for code, berths, longest, power, _fuel, _visitor in MARINA_PONTOONS:
        for berth_no in range(1, berths + 1):
            length = min(longest, rng.choice([8.0, 9.0, 10.0, 10.0, 12.0, 12.0, 15.0, 18.0, 24.0]))
            connection.execute(
                "INSERT INTO berth VALUES (?, ?, ?, ?, ?, ?, ?)",
                (code, berth_no, length, round(length * 0.35 + 0.5, 1), rng.choice([2.0, 2.5, 2.5, 3.0, 3.5]),
                 rng.choice([16, 16, 32]) if power else None, int(code != "F")),
            )  # fmt: skip
    for owner_id in range(1, 131):
        first, last = rng.choice(MARINA_FIRST), rng.choice(MARINA_LAST)
        connection.execute(
            "INSERT INTO owner VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (owner_id, rng.choice([None, "Mr", "Mrs", "Ms", "Dr", "Capt"]), first, last,
             None if rng.random() < 0.15 else f"{first.lower()}.{last.lower()}{owner_id}@example.co.uk",
             None if rng.random() < 0.2 else f"07{rng.randint(100000000, 999999999)}",
             rng.choices(["GB", "IE", "NO", "NL", "FR"], [80, 6, 5, 5, 4])[0], int(rng.random() < 0.45)),
        )  # fmt: skip
    vessels = []
    for vessel_id in range(1, 141):
        kind = rng.choices(["SAIL", "MOTR", "CAT", "RIB"], [55, 30, 6, 9])[0]
        length = round(rng.uniform(5.0, 7.5) if kind == "RIB" else rng.uniform(7.5, 17.0), 1)
        connection.execute(
            "INSERT INTO vessel VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (vessel_id, rng.choice(MARINA_BOATS), kind, length,
             round(length * (0.55 if kind == "CAT" else 0.32), 1),
             round(0.4 + length * (0.12 if kind == "SAIL" else 0.06), 1),
             None if rng.random() < 0.1 else rng.randint(1972, 2024),
             None if kind == "SAIL" and rng.random() < 0.1 else rng.choice([9, 20, 30, 40, 55, 150, 300, 440]),
             None if rng.random() < 0.3 else f"23{rng.randint(2000000, 5999999)}", int(rng.random() < 0.92),
             int(rng.random() < 0.06)),
        )  # fmt: skip
        vessels.append((vessel_id, length))
        owners = rng.sample(range(1, 131), rng.choices([1, 2, 3], [65, 28, 7])[0])
        for place, owner_id in enumerate(owners):
            connection.execute(
                "INSERT INTO vessel_owner VALUES (?, ?, ?, ?)",
                (vessel_id, owner_id, 100 // len(owners) + (100 % len(owners) if place == 0 else 0), int(place == 0)),
            )
    return vessels


def _marina_berthing(connection: sqlite3.Connection, rng: random.Random, vessels: list[tuple]) -> None:
    """Staff, 150 berth allocations, 260 visits and 220 fuel sales."""
    for staff_id, (name, role, seasonal) in enumerate(MARINA_STAFF, start=1):
        connection.execute(
            "INSERT INTO staff VALUES (?, ?, ?, ?, ?, ?)",
            (staff_id, name, role, (date(2008, 3, 1) + timedelta(days=rng.randint(0, 6500))).isoformat(),
             int(role in ("HM", "DHM", "BH") and rng.random() < 0.8), seasonal),
        )  # fmt: skip
    berths = connection.execute("SELECT pontoon_cd, berth_no, max_loa_m FROM berth").fetchall()
    homes = [b for b in berths if b[0] in ("A", "B", "C", "D")]
    visiting = [b for b in berths if b[0] in ("E", "F")]
    fees = {"ANN": 310.0, "SUM": 220.0, "WIN": 150.0, "MON": 45.0}
    for alloc_id, (vessel_id, length) in enumerate(rng.sample(vessels, 120), start=1):
        code, berth_no, _longest = rng.choice([b for b in homes if b[2] >= length] or homes)
        contract = rng.choices(list(fees), [60, 20, 12, 8])[0]
        start = date(2024, 4, 1) + timedelta(days=rng.randint(0, 900))
        length_days = {"ANN": 365, "SUM": 183, "WIN": 183, "MON": 30}[contract]
        ends = None if contract == "ANN" and rng.random() < 0.6 else start + timedelta(days=length_days)
        connection.execute(
            "INSERT INTO berth_alloc VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (alloc_id, vessel_id, code, berth_no, contract, start.isoformat(), ends.isoformat() if ends else None,
             round(fees[contract] * length, 2), int(contract == "ANN" and rng.random() < 0.7)),
        )  # fmt: skip
    hands = [i for i, (_n, role, _s) in enumerate(MARINA_STAFF, start=1) if role in ("BH", "DHM", "HM")]
    for visit_id in range(1, 261):
        vessel_id, length = rng.choice(vessels)
        code, berth_no, _longest = rng.choice(visiting)
        arrived = datetime(2026, 4, 1, 8, 0) + timedelta(days=rng.randint(0, 200), minutes=15 * rng.randint(0, 44))
        nights = None if visit_id > 252 else rng.choices([0, 1, 2, 3, 7], [10, 45, 25, 12, 8])[0]
        left = None
        if nights is not None:
            left = datetime.combine(arrived.date() + timedelta(days=nights), datetime.min.time())
            left = max(
                left + timedelta(hours=rng.randint(8, 12), minutes=rng.choice([0, 30])), arrived + timedelta(hours=2)
            )
        connection.execute(
            "INSERT INTO visit_rec VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (visit_id, vessel_id, code, berth_no, rng.choice(hands), arrived.isoformat(sep=" ", timespec="minutes"),
             left.isoformat(sep=" ", timespec="minutes") if left else None, nights,
             round(3.2 * length * nights if nights else 12.0, 2), int(left is not None and rng.random() < 0.95)),
        )  # fmt: skip
    for sale_id in range(1, 221):
        vessel_id, _length = rng.choice(vessels)
        fuel = rng.choices(["DSL", "PET", "RDD"], [70, 18, 12])[0]
        connection.execute(
            "INSERT INTO fuel_sale VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (sale_id, vessel_id, rng.choice(hands),
             (datetime(2026, 4, 1, 8, 0) + timedelta(days=rng.randint(0, 200), minutes=5 * rng.randint(0, 120)))
             .isoformat(sep=" ", timespec="minutes"), fuel, round(rng.uniform(8, 260), 1),
             {"DSL": 148.9, "PET": 159.9, "RDD": 104.5}[fuel] + rng.choice([0.0, 0.0, 2.0, -3.0]), int(fuel != "RDD")),
        )  # fmt: skip


def build_marina_database(path: str | Path, seed: int = 35) -> Path:
    """Write the marina database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, MARINA_SCHEMA, seed) as (connection, rng):
        _marina_berthing(connection, rng, _marina_fleet(connection, rng))
    return Path(path)


FERRY_SCHEMA = """
CREATE TABLE port (
    port_cd TEXT PRIMARY KEY,
    port_nm TEXT NOT NULL UNIQUE,
    ctry_cd TEXT NOT NULL,
    berth_cnt INTEGER NOT NULL,
    opened_yr INTEGER,
    customs INTEGER NOT NULL
);
CREATE TABLE vessel (
    imo_no INTEGER PRIMARY KEY,
    vessel_nm TEXT NOT NULL,
    built_yr INTEGER NOT NULL,
    gross_tons INTEGER NOT NULL,
    pax_cap INTEGER NOT NULL,
    car_cap INTEGER NOT NULL,
    cabin_cnt INTEGER,
    catamaran INTEGER NOT NULL,
    refitted INTEGER NOT NULL
);
CREATE TABLE route (
    route_cd TEXT PRIMARY KEY,
    dep_port_cd TEXT NOT NULL REFERENCES port (port_cd),
    arr_port_cd TEXT NOT NULL REFERENCES port (port_cd),
    dist_nm REAL NOT NULL,
    crossing_min INTEGER NOT NULL,
    overnight INTEGER NOT NULL,
    seasonal INTEGER NOT NULL
);
CREATE TABLE sailing (
    sailing_id INTEGER PRIMARY KEY,
    route_cd TEXT NOT NULL REFERENCES route (route_cd),
    imo_no INTEGER NOT NULL REFERENCES vessel (imo_no),
    sched_dep_ts TEXT NOT NULL,
    delay_min INTEGER,
    status_cd TEXT NOT NULL,
    pax_cnt INTEGER,
    veh_cnt INTEGER,
    cancelled INTEGER NOT NULL
);
CREATE TABLE crew_member (
    crew_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    rank_cd TEXT NOT NULL,
    nat_cd TEXT NOT NULL,
    cert_exp_dt TEXT,
    relief INTEGER NOT NULL
);
CREATE TABLE crew_roster (
    sailing_id INTEGER NOT NULL REFERENCES sailing (sailing_id),
    crew_id INTEGER NOT NULL REFERENCES crew_member (crew_id),
    duty_cd TEXT NOT NULL,
    watch_no INTEGER NOT NULL,
    PRIMARY KEY (sailing_id, crew_id)
);
CREATE TABLE customer (
    cust_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    email_addr TEXT,
    ctry_cd TEXT NOT NULL,
    loyalty_tier INTEGER,
    freight INTEGER NOT NULL
);
CREATE TABLE booking (
    booking_ref TEXT PRIMARY KEY,
    cust_id INTEGER NOT NULL REFERENCES customer (cust_id),
    sailing_id INTEGER NOT NULL REFERENCES sailing (sailing_id),
    booked_dt TEXT NOT NULL,
    veh_type_cd TEXT,
    veh_len_m REAL,
    cabin_no TEXT,
    fare_amt REAL NOT NULL,
    amended INTEGER NOT NULL,
    pet INTEGER NOT NULL
);
CREATE TABLE booking_pax (
    booking_ref TEXT NOT NULL REFERENCES booking (booking_ref),
    seq_no INTEGER NOT NULL,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    birth_yr INTEGER,
    pax_type_cd TEXT NOT NULL,
    wheelchair INTEGER NOT NULL,
    PRIMARY KEY (booking_ref, seq_no)
);
"""

# code, name, country, berths, year opened, customs
FERRY_PORTS = [
    ("HOL", "Holyhead", "GB", 4, 1880, 1), ("DUB", "Dublin Port", "IE", 6, None, 1),
    ("PME", "Portsmouth", "GB", 5, 1976, 1), ("CHB", "Cherbourg", "FR", 3, None, 1),
    ("OBN", "Oban", "GB", 2, 1880, 0), ("CRN", "Craignure", "GB", 1, 1964, 0),
    ("ABZ", "Aberdeen", "GB", 3, 1990, 0), ("KWL", "Kirkwall", "GB", 2, None, 0),
]  # fmt: skip
# IMO number, name, built, gross tons, passengers, cars, cabins, catamaran, refitted
FERRY_VESSELS = [
    (9214288, "Ulysses", 2001, 50938, 1875, 1342, 117, 0, 1),
    (9807304, "W.B. Yeats", 2018, 54975, 1885, 1216, 165, 0, 0),
    (9015266, "Normandie", 1992, 27541, 2120, 600, 216, 0, 1),
    (9783061, "Isle of Mull", 1988, 4719, 962, 80, None, 0, 1),
    (9361108, "Express", 1998, 5902, 868, 195, None, 1, 0), (9353838, "Hrossey", 2002, 12307, 600, 160, 92, 0, 1),
    (9353840, "Hjaltland", 2002, 12307, 600, 160, 92, 0, 0),
    (9632870, "Loch Seaforth", 2014, 8680, 700, 143, None, 0, 0),
]  # fmt: skip
# code, from, to, nautical miles, minutes, overnight, seasonal, vessels
FERRY_ROUTES = [
    ("HOL-DUB", "HOL", "DUB", 60.0, 195, 0, 0, [9214288, 9807304]),
    ("DUB-HOL", "DUB", "HOL", 60.0, 195, 0, 0, [9214288, 9807304]),
    ("HOL-DUB-X", "HOL", "DUB", 60.0, 120, 0, 1, [9361108]),
    ("PME-CHB", "PME", "CHB", 76.0, 300, 1, 0, [9015266]),
    ("CHB-PME", "CHB", "PME", 76.0, 285, 1, 0, [9015266]),
    ("OBN-CRN", "OBN", "CRN", 9.5, 46, 0, 0, [9783061, 9632870]),
    ("CRN-OBN", "CRN", "OBN", 9.5, 46, 0, 0, [9783061, 9632870]),
    ("ABZ-KWL", "ABZ", "KWL", 132.0, 360, 1, 0, [9353838, 9353840]),
    ("KWL-ABZ", "KWL", "ABZ", 132.0, 360, 1, 1, [9353838, 9353840]),
]  # fmt: skip
FERRY_FIRST = ["Aoife", "Bronagh", "Ciaran", "Declan", "Eilidh", "Fergus", "Grainne", "Hamish", "Isla", "Jamie",
               "Kerry", "Lewis", "Mairead", "Niall", "Orla", "Padraig", "Rhona", "Sean", "Tomas", "Una"]  # fmt: skip
FERRY_LAST = ["Byrne", "Campbell", "Doyle", "Gallagher", "Kelly", "MacDonald", "MacKenzie", "Murphy", "O'Brien",
              "Ryan", "Sinclair", "Walsh", "Williams", "Jones", "Evans", "Morrison"]  # fmt: skip
# rank code, how many, duty codes
FERRY_RANKS = [("MST", 6, ["CMD"]), ("CO", 6, ["NAV", "CMD"]), ("2O", 8, ["NAV"]), ("CE", 6, ["ENG"]),
               ("AB", 24, ["DCK", "MOR"]), ("STW", 30, ["HOT", "SHP", "PUR"])]  # fmt: skip


def _ferry_fleet(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Ports, vessels, routes, 480 sailings, 80 crew members and who sailed on each."""
    connection.executemany("INSERT INTO port VALUES (?, ?, ?, ?, ?, ?)", FERRY_PORTS)
    connection.executemany("INSERT INTO vessel VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", FERRY_VESSELS)
    for code, dep, arr, miles, minutes, overnight, seasonal, _ships in FERRY_ROUTES:
        connection.execute(
            "INSERT INTO route VALUES (?, ?, ?, ?, ?, ?, ?)", (code, dep, arr, miles, minutes, overnight, seasonal)
        )
    crew = []
    for rank, count, duties in FERRY_RANKS:
        for _ in range(count):
            crew_id = len(crew) + 1
            connection.execute(
                "INSERT INTO crew_member VALUES (?, ?, ?, ?, ?, ?, ?)",
                (crew_id, rng.choice(FERRY_FIRST), rng.choice(FERRY_LAST), rank,
                 rng.choices(["GB", "IE", "PL", "PH", "LV"], [55, 20, 10, 10, 5])[0],
                 None if rank == "STW" else (date(2026, 1, 1) + timedelta(days=rng.randint(0, 1400))).isoformat(),
                 int(rng.random() < 0.15)),
            )  # fmt: skip
            crew.append((crew_id, rank, duties))
    for sailing_id in range(1, 481):
        code, _dep, _arr, _miles, _minutes, _overnight, seasonal, ships = rng.choice(FERRY_ROUTES)
        day = date(2026, 5 if seasonal else 1, 3) + timedelta(days=rng.randint(0, 120 if seasonal else 300))
        departs = datetime.combine(day, datetime.min.time()) + timedelta(hours=rng.choice([2, 8, 9, 14, 17, 20]))
        status = rng.choices(["ARR", "CXL", "DLY"], [82, 5, 13])[0]
        imo = rng.choice(ships)
        capacity = {v[0]: (v[4], v[5]) for v in FERRY_VESSELS}[imo]
        connection.execute(
            "INSERT INTO sailing VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (sailing_id, code, imo, departs.isoformat(sep=" ", timespec="minutes"),
             None if status == "CXL" else (rng.choice([15, 25, 40, 70, 110]) if status == "DLY" else 0), status,
             None if status == "CXL" else int(capacity[0] * rng.uniform(0.2, 0.95)),
             None if status == "CXL" else int(capacity[1] * rng.uniform(0.1, 0.9)), int(status == "CXL")),
        )  # fmt: skip
        if status == "CXL":
            continue
        chosen = [rng.choice([c for c in crew if c[1] == rank]) for rank in ("MST", "CO", "CE", "AB", "STW")]
        chosen += rng.sample([c for c in crew if c[1] in ("AB", "STW", "2O")], rng.randint(1, 4))
        for crew_id, _rank, duties in {c[0]: c for c in chosen}.values():
            connection.execute(
                "INSERT INTO crew_roster VALUES (?, ?, ?, ?)",
                (sailing_id, crew_id, rng.choice(duties), rng.choice([1, 2, 3])),
            )


def _ferry_bookings(connection: sqlite3.Connection, rng: random.Random) -> None:
    """220 customers, 900 bookings and the passengers named on them."""
    for cust_id in range(1, 221):
        first, last = rng.choice(FERRY_FIRST), rng.choice(FERRY_LAST)
        email = f"{first.lower()}.{last.lower().replace(chr(39), '')}{cust_id}@example.ie"
        connection.execute(
            "INSERT INTO customer VALUES (?, ?, ?, ?, ?, ?, ?)",
            (cust_id, first, last,
             None if rng.random() < 0.18 else email,
             rng.choices(["GB", "IE", "FR", "DE", "NL"], [50, 30, 10, 6, 4])[0],
             rng.choices([None, 1, 2, 3], [50, 28, 15, 7])[0], int(rng.random() < 0.05)),
        )  # fmt: skip
    sailings = connection.execute("SELECT sailing_id, sched_dep_ts, route_cd FROM sailing").fetchall()
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    refs = set()
    while len(refs) < 900:
        refs.add("".join(rng.choices(letters, k=6)))
    for ref in sorted(refs):
        sailing_id, departs, route_cd = rng.choice(sailings)
        vehicle = rng.choices([None, "CAR", "VAN", "MC", "BIC", "CVN"], [35, 40, 8, 6, 6, 5])[0]
        length = {None: None, "CAR": 4.5, "VAN": 6.0, "MC": 2.2, "BIC": 1.8, "CVN": 11.0}[vehicle]
        overnight = route_cd.startswith(("PME", "CHB", "ABZ", "KWL"))
        party = rng.choices([1, 2, 3, 4, 5], [30, 35, 15, 15, 5])[0]
        connection.execute(
            "INSERT INTO booking VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (ref, rng.randint(1, 220), sailing_id,
             (date.fromisoformat(departs[:10]) - timedelta(days=rng.randint(0, 120))).isoformat(), vehicle,
             None if length is None else round(length + rng.choice([-0.3, 0.0, 0.4]), 1),
             f"{rng.choice('4567')}{rng.randint(101, 180)}" if overnight and rng.random() < 0.6 else None,
             round(35.0 * party + (length or 0) * 18.0 + rng.choice([0, 12.5, 29.0]), 2), int(rng.random() < 0.12),
             int(rng.random() < 0.07)),
        )  # fmt: skip
        surname = rng.choice(FERRY_LAST)
        for seq_no in range(1, party + 1):
            kind = "ADT" if seq_no <= 2 else rng.choice(["CHD", "CHD", "INF", "ADT"])
            born = {"ADT": rng.randint(1945, 2004), "CHD": rng.randint(2010, 2021), "INF": rng.randint(2023, 2025)}
            connection.execute(
                "INSERT INTO booking_pax VALUES (?, ?, ?, ?, ?, ?, ?)",
                (ref, seq_no, rng.choice(FERRY_FIRST), surname, None if rng.random() < 0.25 else born[kind], kind,
                 int(rng.random() < 0.03)),
            )  # fmt: skip


def build_ferry_database(path: str | Path, seed: int = 35) -> Path:
    """Write the ferry operator's database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, FERRY_SCHEMA, seed) as (connection, rng):
        _ferry_fleet(connection, rng)
        _ferry_bookings(connection, rng)
    return Path(path)


CINEMA_SCHEMA = """
CREATE TABLE site (
    site_cd TEXT PRIMARY KEY,
    site_nm TEXT NOT NULL UNIQUE,
    city_nm TEXT NOT NULL,
    opened_yr INTEGER,
    screen_cnt INTEGER NOT NULL,
    parking INTEGER NOT NULL,
    refurbished INTEGER NOT NULL
);
CREATE TABLE screen (
    site_cd TEXT NOT NULL REFERENCES site (site_cd),
    screen_no INTEGER NOT NULL,
    seat_cnt INTEGER NOT NULL,
    fmt_cd TEXT NOT NULL,
    recliner INTEGER NOT NULL,
    accessible INTEGER NOT NULL,
    PRIMARY KEY (site_cd, screen_no)
);
CREATE TABLE film (
    film_id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    release_yr INTEGER NOT NULL,
    cert_cd TEXT NOT NULL,
    runtime_min INTEGER NOT NULL,
    genre_cd TEXT NOT NULL,
    distrib_nm TEXT NOT NULL,
    orig_lang_cd TEXT,
    subtitled INTEGER NOT NULL
);
CREATE TABLE screening (
    scr_id INTEGER PRIMARY KEY,
    site_cd TEXT NOT NULL,
    screen_no INTEGER NOT NULL,
    film_id INTEGER NOT NULL REFERENCES film (film_id),
    start_ts TEXT NOT NULL,
    price_band_cd TEXT NOT NULL,
    sold_cnt INTEGER,
    premiere INTEGER NOT NULL,
    cancelled INTEGER NOT NULL,
    FOREIGN KEY (site_cd, screen_no) REFERENCES screen (site_cd, screen_no)
);
CREATE TABLE member (
    mbr_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    birth_yr INTEGER,
    email_addr TEXT,
    home_site_cd TEXT REFERENCES site (site_cd),
    tier_cd TEXT NOT NULL,
    joined_dt TEXT NOT NULL,
    student INTEGER NOT NULL
);
CREATE TABLE ticket (
    scr_id INTEGER NOT NULL REFERENCES screening (scr_id),
    seat_row TEXT NOT NULL,
    seat_no INTEGER NOT NULL,
    mbr_id INTEGER REFERENCES member (mbr_id),
    tkt_type_cd TEXT NOT NULL,
    price_amt REAL NOT NULL,
    vip INTEGER NOT NULL,
    refunded INTEGER NOT NULL,
    PRIMARY KEY (scr_id, seat_row, seat_no)
);
CREATE TABLE conc_item (
    item_cd TEXT PRIMARY KEY,
    item_nm TEXT NOT NULL,
    cat_cd TEXT NOT NULL,
    unit_px REAL NOT NULL,
    kcal INTEGER,
    vegan INTEGER NOT NULL,
    discontinued INTEGER NOT NULL
);
CREATE TABLE conc_sale (
    sale_id INTEGER PRIMARY KEY,
    site_cd TEXT NOT NULL REFERENCES site (site_cd),
    mbr_id INTEGER REFERENCES member (mbr_id),
    sale_ts TEXT NOT NULL,
    pay_cd TEXT NOT NULL
);
CREATE TABLE sale_line (
    sale_id INTEGER NOT NULL REFERENCES conc_sale (sale_id),
    line_no INTEGER NOT NULL,
    item_cd TEXT NOT NULL REFERENCES conc_item (item_cd),
    qty INTEGER NOT NULL,
    combo INTEGER NOT NULL,
    PRIMARY KEY (sale_id, line_no)
);
"""

# code, name, city, year opened, screens, parking, refurbished
CINEMA_SITES = [
    ("BRS-CAB", "Cabot Circus", "Bristol", 2008, 6, 1, 1), ("BRS-HBR", "Harbourside", "Bristol", None, 3, 0, 0),
    ("CDF-BAY", "Cardiff Bay", "Cardiff", 2012, 5, 1, 0), ("BTH-SOU", "Southgate", "Bath", 2010, 4, 0, 1),
    ("EXE-PCS", "Princesshay", "Exeter", None, 4, 0, 0), ("SWN-MAR", "Marina Quay", "Swansea", 2019, 3, 1, 0),
]  # fmt: skip
# title, release year, certificate, minutes, genre, distributor, original language, subtitled
CINEMA_FILMS = [
    ("Dune: Part Two", 2024, "12A", 166, "SCI", "Warner Bros", "en", 0),
    ("The Lion King", 1994, "U", 88, "ANI", "Disney", "en", 0),
    ("The Lion King", 2019, "PG", 118, "FAM", "Disney", "en", 0),
    ("Little Women", 2019, "U", 135, "DRA", "Sony Pictures", "en", 0),
    ("Anatomy of a Fall", 2023, "15", 151, "DRA", "Picturehouse", "fr", 1),
    ("Perfect Days", 2023, "PG", 124, "DRA", "MUBI", "ja", 1), ("Wicked", 2024, "PG", 160, "MUS", "Universal", "en", 0),
    ("Paddington in Peru", 2024, "PG", 106, "FAM", "StudioCanal", "en", 0),
    ("Nosferatu", 2024, "15", 132, "HOR", "Universal", "en", 0), ("Nosferatu", 1922, "PG", 94, "HOR", "BFI", None, 1),
    ("Inside Out 2", 2024, "U", 96, "ANI", "Disney", "en", 0),
    ("Gladiator II", 2024, "15", 148, "ACT", "Paramount", "en", 0),
    ("The Substance", 2024, "18", 141, "HOR", "MUBI", "en", 0),
    ("All of Us Strangers", 2023, "15", 105, "DRA", "Disney", "en", 0),
    ("Robot Dreams", 2023, "U", 102, "ANI", "Curzon", None, 0),
    ("Past Lives", 2023, "12A", 106, "DRA", "StudioCanal", "ko", 1),
    ("Conclave", 2024, "PG", 120, "THR", "Black Bear", "en", 0), ("Flow", 2024, "U", 85, "ANI", "Curzon", None, 0),
]  # fmt: skip
CINEMA_ITEMS = [
    ("POP-S", "Small popcorn", "SNK", 4.2, 370, 1, 0), ("POP-L", "Large popcorn", "SNK", 6.5, 740, 1, 0),
    ("NACH", "Nachos", "SNK", 5.9, 820, 0, 0), ("HDOG", "Hot dog", "HOT", 5.5, 450, 0, 1),
    ("COLA-M", "Medium cola", "DRK", 3.9, 210, 1, 0), ("WATR", "Still water", "DRK", 2.2, 0, 1, 0),
    ("ICE-T", "Ice cream tub", "DES", 4.8, None, 0, 0), ("CHOC", "Chocolate buttons", "SNK", 2.9, 245, 0, 0),
    ("BEER", "Bottled lager", "BAR", 5.2, None, 1, 0), ("WINE", "Glass of red wine", "BAR", 6.8, None, 1, 0),
    ("PIC-M", "Pick and mix", "SNK", 3.5, None, 0, 1),
]  # fmt: skip
CINEMA_FIRST = ["Amelia", "Ben", "Carys", "Dylan", "Eleri", "Finley", "Gwen", "Harri", "Isabel", "Jac", "Keira",
                "Lowri", "Macsen", "Nia", "Owain", "Poppy", "Rhys", "Seren", "Tegan", "Zac"]  # fmt: skip
CINEMA_LAST = ["Davies", "Edwards", "Evans", "Griffiths", "Hughes", "Jenkins", "Jones", "Lewis", "Morgan", "Owen",
               "Phillips", "Price", "Roberts", "Thomas", "Williams"]  # fmt: skip


def _cinema_programme(connection: sqlite3.Connection, rng: random.Random) -> list[tuple]:
    """Sites, screens, films and 420 screenings; returns (screening, seats, cancelled, premiere) rows."""
    connection.executemany("INSERT INTO site VALUES (?, ?, ?, ?, ?, ?, ?)", CINEMA_SITES)
    screens = []
    for code, _name, _city, _year, count, _parking, refurbished in CINEMA_SITES:
        for screen_no in range(1, count + 1):
            fmt = "IMAX" if code == "BRS-CAB" and screen_no == 1 else rng.choices(["2D", "3D", "4DX"], [75, 20, 5])[0]
            seats = rng.choice([48, 72, 96, 120, 180]) if fmt != "IMAX" else 310
            connection.execute(
                "INSERT INTO screen VALUES (?, ?, ?, ?, ?, ?)",
                (code, screen_no, seats, fmt, int(refurbished and rng.random() < 0.6), int(rng.random() < 0.8)),
            )
            screens.append((code, screen_no, seats))
    for film_id, film in enumerate(CINEMA_FILMS, start=1):
        connection.execute("INSERT INTO film VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (film_id, *film))
    screenings = []
    for scr_id in range(1, 421):
        code, screen_no, seats = rng.choice(screens)
        film_id = rng.randint(1, len(CINEMA_FILMS))
        start = datetime(2025, 12, 1, 11, 0) + timedelta(days=rng.randint(0, 90), minutes=15 * rng.randint(0, 44))
        cancelled = int(rng.random() < 0.04)
        premiere = int(CINEMA_FILMS[film_id - 1][1] == 2024 and rng.random() < 0.03)
        connection.execute(
            "INSERT INTO screening VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (scr_id, code, screen_no, film_id, start.isoformat(sep=" ", timespec="minutes"),
             "PK" if start.hour >= 17 or start.weekday() >= 5 else rng.choice(["OFF", "STD"]),
             None if cancelled else 0, premiere, cancelled),
        )  # fmt: skip
        screenings.append((scr_id, seats, cancelled, premiere))
    return screenings


def _cinema_tickets(connection: sqlite3.Connection, rng: random.Random, screenings: list[tuple]) -> None:
    """300 members and the tickets sold for each screening that ran (its sold count kept)."""
    for mbr_id in range(1, 301):
        connection.execute(
            "INSERT INTO member VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (mbr_id, rng.choice(CINEMA_FIRST), rng.choice(CINEMA_LAST),
             None if rng.random() < 0.3 else rng.randint(1950, 2008),
             None if rng.random() < 0.1 else f"m{mbr_id}@example.org",
             None if rng.random() < 0.15 else rng.choice(CINEMA_SITES)[0],
             rng.choices(["STD", "PLUS", "UNL"], [60, 25, 15])[0],
             (date(2019, 1, 1) + timedelta(days=rng.randint(0, 2500))).isoformat(), int(rng.random() < 0.18)),
        )  # fmt: skip
    prices = {"ADL": 11.5, "CHD": 7.5, "STU": 8.5, "SNR": 8.0, "CMP": 0.0}
    for scr_id, seats, cancelled, premiere in screenings:
        if cancelled:
            continue
        sold = rng.randint(0, min(seats, 40 if premiere else 18))
        rows = "ABCDEFGHJK"
        places = rng.sample([(r, n) for r in rows[: max(1, seats // 12)] for n in range(1, 13)], min(sold, seats))
        for seat_row, seat_no in places:
            kind = rng.choices(list(prices), [55, 15, 12, 12, 6])[0]
            vip = int(seat_row in ("A", "B") and rng.random() < 0.5)
            connection.execute(
                "INSERT INTO ticket VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (scr_id, seat_row, seat_no, rng.randint(1, 300) if rng.random() < 0.4 else None, kind,
                 prices[kind] + (4.0 if vip else 0.0) if kind != "CMP" else 0.0, vip, int(rng.random() < 0.02)),
            )  # fmt: skip
        connection.execute("UPDATE screening SET sold_cnt = ? WHERE scr_id = ?", (len(places), scr_id))


def _cinema_concessions(connection: sqlite3.Connection, rng: random.Random) -> None:
    """The concession items, 700 sales and their lines."""
    connection.executemany("INSERT INTO conc_item VALUES (?, ?, ?, ?, ?, ?, ?)", CINEMA_ITEMS)
    for sale_id in range(1, 701):
        connection.execute(
            "INSERT INTO conc_sale VALUES (?, ?, ?, ?, ?)",
            (sale_id, rng.choice(CINEMA_SITES)[0], rng.randint(1, 300) if rng.random() < 0.35 else None,
             (datetime(2025, 12, 1, 11, 0) + timedelta(days=rng.randint(0, 90), minutes=5 * rng.randint(0, 130)))
             .isoformat(sep=" ", timespec="minutes"), rng.choices(["CARD", "CASH", "APP", "GIFT"], [60, 10, 25, 5])[0]),
        )  # fmt: skip
        items = rng.sample([i[0] for i in CINEMA_ITEMS], rng.choices([1, 2, 3], [45, 40, 15])[0])
        combo = int(len(items) > 1 and rng.random() < 0.4)
        for line_no, item_cd in enumerate(items, start=1):
            connection.execute(
                "INSERT INTO sale_line VALUES (?, ?, ?, ?, ?)",
                (sale_id, line_no, item_cd, rng.choices([1, 2, 3, 4], [70, 20, 6, 4])[0], combo),
            )


def build_cinema_database(path: str | Path, seed: int = 35) -> Path:
    """Write the cinema chain's database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, CINEMA_SCHEMA, seed) as (connection, rng):
        _cinema_tickets(connection, rng, _cinema_programme(connection, rng))
        _cinema_concessions(connection, rng)
    return Path(path)


CAMPSITE_SCHEMA = """
CREATE TABLE park (
    park_cd TEXT PRIMARY KEY,
    park_nm TEXT NOT NULL UNIQUE,
    region_cd TEXT NOT NULL,
    opened_yr INTEGER,
    pitch_cnt INTEGER NOT NULL,
    swimming INTEGER NOT NULL,
    fishing INTEGER NOT NULL,
    coastal INTEGER NOT NULL
);
CREATE TABLE pitch (
    park_cd TEXT NOT NULL REFERENCES park (park_cd),
    pitch_no INTEGER NOT NULL,
    pitch_type_cd TEXT NOT NULL,
    area_sqm INTEGER NOT NULL,
    max_occ INTEGER NOT NULL,
    hookup INTEGER NOT NULL,
    hardstanding INTEGER NOT NULL,
    parking INTEGER NOT NULL,
    shaded INTEGER NOT NULL,
    PRIMARY KEY (park_cd, pitch_no)
);
CREATE TABLE guest (
    guest_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    email_addr TEXT,
    ctry_cd TEXT NOT NULL,
    club_no INTEGER UNIQUE,
    birth_yr INTEGER,
    newsletter INTEGER NOT NULL
);
CREATE TABLE stay (
    stay_id INTEGER PRIMARY KEY,
    guest_id INTEGER NOT NULL REFERENCES guest (guest_id),
    park_cd TEXT NOT NULL,
    pitch_no INTEGER NOT NULL,
    arr_dt TEXT NOT NULL,
    nights INTEGER NOT NULL,
    adult_cnt INTEGER NOT NULL,
    child_cnt INTEGER NOT NULL,
    dog_cnt INTEGER NOT NULL,
    unit_cd TEXT NOT NULL,
    total_amt REAL NOT NULL,
    awning INTEGER NOT NULL,
    cancelled INTEGER NOT NULL,
    FOREIGN KEY (park_cd, pitch_no) REFERENCES pitch (park_cd, pitch_no)
);
CREATE TABLE facility (
    fac_cd TEXT PRIMARY KEY,
    fac_nm TEXT NOT NULL UNIQUE,
    cat_cd TEXT NOT NULL,
    chargeable INTEGER NOT NULL
);
CREATE TABLE park_facility (
    park_cd TEXT NOT NULL REFERENCES park (park_cd),
    fac_cd TEXT NOT NULL REFERENCES facility (fac_cd),
    open_hr INTEGER,
    close_hr INTEGER,
    seasonal INTEGER NOT NULL,
    PRIMARY KEY (park_cd, fac_cd)
);
CREATE TABLE staff (
    staff_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    park_cd TEXT NOT NULL REFERENCES park (park_cd),
    role_cd TEXT NOT NULL,
    start_dt TEXT NOT NULL,
    hrs_per_wk INTEGER NOT NULL,
    lifeguard INTEGER NOT NULL,
    seasonal INTEGER NOT NULL
);
CREATE TABLE activity (
    act_id INTEGER PRIMARY KEY,
    act_nm TEXT NOT NULL,
    park_cd TEXT NOT NULL REFERENCES park (park_cd),
    leader_id INTEGER REFERENCES staff (staff_id),
    day_cd TEXT NOT NULL,
    start_hr INTEGER NOT NULL,
    dur_min INTEGER NOT NULL,
    cap INTEGER NOT NULL,
    price_amt REAL,
    indoor INTEGER NOT NULL,
    ticketed INTEGER NOT NULL
);
CREATE TABLE act_booking (
    act_id INTEGER NOT NULL REFERENCES activity (act_id),
    stay_id INTEGER NOT NULL REFERENCES stay (stay_id),
    places INTEGER NOT NULL,
    attended INTEGER NOT NULL,
    PRIMARY KEY (act_id, stay_id)
);
"""

# code, name, region, year opened, swimming, fishing, coastal
CAMPSITE_PARKS = [
    ("CRN-PEN", "Penhale Sands", "CRN", 1968, 1, 0, 1), ("CRN-TRE", "Trevose Head", "CRN", None, 0, 1, 1),
    ("LKD-DWT", "Derwent Water", "LKD", 1975, 0, 1, 0), ("LKD-ULL", "Ullswater Bank", "LKD", 1989, 1, 1, 0),
    ("NFK-WLS", "Wells Dunes", "NFK", None, 1, 0, 1), ("PDK-HOP", "Hope Valley", "PDK", 2004, 0, 0, 0),
    ("SNW-BDG", "Beddgelert Forest", "SNW", 1982, 0, 1, 0),
]  # fmt: skip
# pitch type, share, area in square metres, most people
CAMPSITE_PITCH_TYPES = [("TENT", 35, [60, 80, 100], 6), ("TOUR", 35, [100, 120], 6), ("MOTOR", 15, [100, 120], 4),
                        ("POD", 8, [20], 2), ("LODGE", 7, [150], 6)]  # fmt: skip
# code, name, category, chargeable
CAMPSITE_FACILITIES = [
    ("SHWR", "Shower block", "WASH", 0), ("LNDR", "Launderette", "WASH", 1), ("SHOP", "Site shop", "RETL", 0),
    ("CAFE", "Cafe", "FOOD", 0), ("BAR", "Clubhouse bar", "FOOD", 0), ("PLAY", "Play area", "LEIS", 0),
    ("POOL", "Heated pool", "LEIS", 1), ("WIFI", "Wi-Fi", "TECH", 1), ("EVCH", "EV charging point", "TECH", 1),
    ("DOGW", "Dog walk", "LEIS", 0), ("BIKE", "Bike hire", "LEIS", 1), ("CHEM", "Chemical disposal point", "WASH", 0),
]  # fmt: skip
CAMPSITE_FIRST = ["Alice", "Ben", "Chloe", "Dan", "Ellie", "Frank", "Grace", "Harry", "Ivy", "Jack", "Kate", "Liam",
                  "Megan", "Noah", "Olivia", "Pete", "Rosie", "Sam", "Toby", "Zoe"]  # fmt: skip
CAMPSITE_LAST = ["Baker", "Carter", "Dawson", "Ellis", "Fletcher", "Green", "Hall", "Jackson", "King", "Lee",
                 "Mason", "Nash", "Parker", "Robinson", "Shaw", "Turner", "Walker", "Wright"]  # fmt: skip
# activity name, minutes, capacity, price (None: free), indoor, ticketed
CAMPSITE_ACTIVITIES = [
    ("Guided walk", 120, 20, None, 0, 0), ("Rock pooling", 90, 15, 3.5, 0, 1), ("Archery taster", 60, 10, 8.0, 0, 1),
    ("Kids club", 90, 25, None, 1, 0), ("Quiz night", 120, 80, None, 1, 0), ("Aqua fit", 45, 18, 4.0, 0, 1),
    ("Bushcraft", 150, 12, 12.0, 0, 1), ("Stargazing", 90, 30, 5.0, 0, 1), ("Bingo", 90, 60, 2.0, 1, 1),
    ("Fly fishing lesson", 180, 6, 25.0, 0, 1),
]  # fmt: skip


def _campsite_parks(connection: sqlite3.Connection, rng: random.Random) -> list[tuple]:
    """Parks, their pitches and facilities, 70 staff and the weekly activities; returns (park, pitch, type, most
    people, price per night) of each pitch."""
    pitches = []
    for code, name, region, year, swimming, fishing, coastal in CAMPSITE_PARKS:
        count = rng.choice([24, 30, 36, 42])
        connection.execute(
            "INSERT INTO park VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (code, name, region, year, count, swimming, fishing, coastal),
        )
        for pitch_no in range(1, count + 1):
            kind, _share, areas, most = rng.choices(CAMPSITE_PITCH_TYPES, [t[1] for t in CAMPSITE_PITCH_TYPES])[0]
            hookup = int(kind in ("TOUR", "MOTOR", "LODGE", "POD") or rng.random() < 0.3)
            connection.execute(
                "INSERT INTO pitch VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (code, pitch_no, kind, rng.choice(areas), most, hookup, int(kind == "MOTOR" or rng.random() < 0.2),
                 int(kind != "TENT" or rng.random() < 0.5), int(not coastal and rng.random() < 0.4)),
            )  # fmt: skip
            nightly = {"TENT": 18.0, "TOUR": 28.0, "MOTOR": 30.0, "POD": 45.0, "LODGE": 95.0}[kind] + (4.0 * coastal)
            pitches.append((code, pitch_no, kind, most, nightly))
    for fac_cd, fac_nm, cat_cd, chargeable in CAMPSITE_FACILITIES:
        connection.execute("INSERT INTO facility VALUES (?, ?, ?, ?)", (fac_cd, fac_nm, cat_cd, chargeable))
    for code, _name, _region, _year, swimming, _fishing, _coastal in CAMPSITE_PARKS:
        codes = ["SHWR", "CHEM"] + rng.sample(
            ["LNDR", "SHOP", "CAFE", "BAR", "PLAY", "WIFI", "EVCH", "DOGW", "BIKE"], 5
        )
        for fac_cd in codes + (["POOL"] if swimming else []):
            hours = (
                (None, None)
                if fac_cd in ("SHWR", "CHEM", "WIFI", "DOGW", "EVCH")
                else rng.choice([(8, 18), (9, 17), (11, 23)])
            )
            connection.execute(
                "INSERT INTO park_facility VALUES (?, ?, ?, ?, ?)",
                (code, fac_cd, *hours, int(fac_cd in ("POOL", "CAFE", "BIKE") and rng.random() < 0.7)),
            )
    roles = [("MGR", 1, 40), ("WDN", 2, 40), ("RCP", 2, 30), ("MNT", 2, 37), ("CLN", 2, 25), ("ENT", 1, 35)]
    staff_id = 0
    for code, *_rest in CAMPSITE_PARKS:
        for role, count, hours in roles:
            for _ in range(count):
                staff_id += 1
                connection.execute(
                    "INSERT INTO staff VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (staff_id, rng.choice(CAMPSITE_FIRST), rng.choice(CAMPSITE_LAST), code, role,
                     (date(2012, 3, 1) + timedelta(days=rng.randint(0, 4600))).isoformat(),
                     hours - rng.choice([0, 0, 5, 10]), int(role in ("ENT", "WDN") and rng.random() < 0.5),
                     int(role in ("CLN", "ENT", "RCP") and rng.random() < 0.6)),
                )  # fmt: skip
    act_id = 0
    for park_no, (code, _name, _region, _year, swimming, fishing, coastal) in enumerate(CAMPSITE_PARKS):
        leaders = [s for s in range(park_no * 10 + 1, park_no * 10 + 11)]
        offered = [a for a in CAMPSITE_ACTIVITIES if (a[0] != "Aqua fit" or swimming)
                   and (a[0] != "Fly fishing lesson" or fishing) and (a[0] != "Rock pooling" or coastal)]  # fmt: skip
        for name, minutes, cap, price, indoor, ticketed in rng.sample(offered, rng.randint(4, 7)):
            act_id += 1
            connection.execute(
                "INSERT INTO activity VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (act_id, name, code, rng.choice(leaders) if rng.random() < 0.8 else None,
                 rng.choice(["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"]), 20 if indoor else rng.choice([10, 14]),
                 minutes, cap, price, indoor, ticketed),
            )  # fmt: skip
    return pitches


def _campsite_stays(connection: sqlite3.Connection, rng: random.Random, pitches: list[tuple]) -> None:
    """300 guests, 900 stays on the pitches and the activities booked during them."""
    for guest_id in range(1, 301):
        first, last = rng.choice(CAMPSITE_FIRST), rng.choice(CAMPSITE_LAST)
        connection.execute(
            "INSERT INTO guest VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (guest_id, first, last,
             None if rng.random() < 0.15 else f"{first.lower()}.{last.lower()}{guest_id}@example.com",
             rng.choices(["GB", "IE", "NL", "DE", "FR"], [80, 6, 7, 5, 2])[0],
             100000 + guest_id * 7 if rng.random() < 0.35 else None,
             None if rng.random() < 0.3 else rng.randint(1948, 2004),
             int(rng.random() < 0.4)),
        )  # fmt: skip
    activities = {}
    for act_id, park_cd, cap in connection.execute("SELECT act_id, park_cd, cap FROM activity"):
        activities.setdefault(park_cd, []).append((act_id, cap))
    for stay_id in range(1, 901):
        park_cd, pitch_no, kind, most, nightly = rng.choice(pitches)
        nights = rng.choices([1, 2, 3, 4, 5, 7, 10, 14], [10, 25, 15, 10, 8, 20, 6, 6])[0]
        adults = rng.randint(1, min(2, most))
        children = rng.randint(0, max(0, min(4, most - adults)))
        unit = {"TENT": "TENT", "TOUR": rng.choice(["CVN", "CVN", "TT"]), "MOTOR": "MH", "POD": "POD", "LODGE": "LDG"}[
            kind
        ]
        cancelled = int(rng.random() < 0.06)
        connection.execute(
            "INSERT INTO stay VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (stay_id, rng.randint(1, 300), park_cd, pitch_no,
             (date(2025, 3, 14) + timedelta(days=rng.randint(0, 230))).isoformat(), nights, adults, children,
             rng.choices([0, 1, 2], [70, 24, 6])[0], unit, round(nightly * nights + 2.5 * children * nights, 2),
             int(unit in ("CVN", "MH") and rng.random() < 0.45), cancelled),
        )  # fmt: skip
        if cancelled or rng.random() < 0.45:
            continue
        for act_id, cap in rng.sample(activities[park_cd], min(len(activities[park_cd]), rng.randint(1, 3))):
            connection.execute(
                "INSERT INTO act_booking VALUES (?, ?, ?, ?)",
                (act_id, stay_id, min(cap, rng.randint(1, adults + children)), int(rng.random() < 0.88)),
            )


def build_campsite_database(path: str | Path, seed: int = 35) -> Path:
    """Write the holiday park chain's database to `path` (replacing it) from `seed`; the same seed gives the same
    file."""
    with _fresh_database(path, CAMPSITE_SCHEMA, seed) as (connection, rng):
        _campsite_stays(connection, rng, _campsite_parks(connection, rng))
    return Path(path)


AUCTION_SCHEMA = """
CREATE TABLE saleroom (
    room_cd TEXT PRIMARY KEY,
    room_nm TEXT NOT NULL UNIQUE,
    city_nm TEXT NOT NULL,
    seat_cnt INTEGER NOT NULL,
    opened_yr INTEGER,
    catering INTEGER NOT NULL,
    parking INTEGER NOT NULL
);
CREATE TABLE sale (
    sale_no INTEGER PRIMARY KEY,
    room_cd TEXT NOT NULL REFERENCES saleroom (room_cd),
    sale_title TEXT NOT NULL,
    dept_cd TEXT NOT NULL,
    sale_dt TEXT NOT NULL,
    buyers_prem_pct REAL NOT NULL,
    online INTEGER NOT NULL,
    postponed INTEGER NOT NULL
);
CREATE TABLE specialist (
    spec_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    dept_cd TEXT NOT NULL,
    room_cd TEXT REFERENCES saleroom (room_cd),
    joined_yr INTEGER NOT NULL,
    auctioneer INTEGER NOT NULL
);
CREATE TABLE sale_specialist (
    sale_no INTEGER NOT NULL REFERENCES sale (sale_no),
    spec_id INTEGER NOT NULL REFERENCES specialist (spec_id),
    role_cd TEXT NOT NULL,
    PRIMARY KEY (sale_no, spec_id)
);
CREATE TABLE consignor (
    consignor_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    firm_nm TEXT,
    ctry_cd TEXT NOT NULL,
    comm_pct REAL NOT NULL,
    trade INTEGER NOT NULL,
    vat_reg INTEGER NOT NULL
);
CREATE TABLE lot (
    sale_no INTEGER NOT NULL REFERENCES sale (sale_no),
    lot_no INTEGER NOT NULL,
    consignor_id INTEGER NOT NULL REFERENCES consignor (consignor_id),
    lot_desc TEXT NOT NULL,
    maker_nm TEXT,
    circa_yr INTEGER,
    est_low_amt INTEGER NOT NULL,
    est_high_amt INTEGER NOT NULL,
    reserve_amt INTEGER,
    signed INTEGER NOT NULL,
    framed INTEGER NOT NULL,
    withdrawn INTEGER NOT NULL,
    PRIMARY KEY (sale_no, lot_no)
);
CREATE TABLE bidder (
    paddle_no INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    email_addr TEXT,
    ctry_cd TEXT NOT NULL,
    reg_dt TEXT NOT NULL,
    dealer INTEGER NOT NULL,
    vetted INTEGER NOT NULL
);
CREATE TABLE bid (
    bid_id INTEGER PRIMARY KEY,
    sale_no INTEGER NOT NULL,
    lot_no INTEGER NOT NULL,
    paddle_no INTEGER NOT NULL REFERENCES bidder (paddle_no),
    bid_amt INTEGER NOT NULL,
    channel_cd TEXT NOT NULL,
    bid_ts TEXT NOT NULL,
    FOREIGN KEY (sale_no, lot_no) REFERENCES lot (sale_no, lot_no)
);
CREATE TABLE purchase (
    sale_no INTEGER NOT NULL,
    lot_no INTEGER NOT NULL,
    paddle_no INTEGER NOT NULL REFERENCES bidder (paddle_no),
    hammer_amt INTEGER NOT NULL,
    prem_amt REAL NOT NULL,
    paid_dt TEXT,
    shipping INTEGER NOT NULL,
    collected INTEGER NOT NULL,
    PRIMARY KEY (sale_no, lot_no),
    FOREIGN KEY (sale_no, lot_no) REFERENCES lot (sale_no, lot_no)
);
"""

# code, name, city, seats, year opened, catering, parking
AUCTION_ROOMS = [
    ("EDN", "Queen Street Rooms", "Edinburgh", 220, 1881, 1, 0),
    ("GLA", "West Nile Gallery", "Glasgow", 140, None, 0, 0),
    ("YRK", "Micklegate Hall", "York", 180, 1952, 1, 1), ("BTH", "Lansdown Saleroom", "Bath", 90, 2011, 0, 1),
    ("LDN", "St James's", "London", 300, None, 1, 0),
]  # fmt: skip
# department code, sale titles, lot descriptions, makers, estimate bands
AUCTION_DEPTS = [
    ("PIC", ["Scottish Paintings", "Modern British Art", "Old Master Paintings"],
     ["Oil on canvas, harbour scene", "Watercolour, Highland landscape", "Portrait of a lady", "Still life with fruit",
      "Etching, river view", "Oil on board, street scene"],
     ["Anne Redpath", "S.J. Peploe", "J.D. Fergusson", "Joan Eardley", "L.S. Lowry", None],
     [300, 800, 2000, 6000, 20000]),
    ("JWL", ["Jewellery & Watches", "Fine Jewellery"],
     ["Diamond solitaire ring", "Gold pocket watch", "Sapphire brooch", "Pearl necklace", "Steel wristwatch",
      "Garnet earrings"], ["Cartier", "Rolex", "Omega", "Tiffany & Co.", None, None], [150, 400, 1200, 4000]),
    ("FUR", ["Fine Furniture", "Country House Sale"],
     ["Mahogany bureau", "Oak dresser", "Pair of walnut chairs", "Longcase clock", "Gilt mirror", "Rosewood table"],
     ["Gillows", "Chippendale school", None, None], [200, 600, 1500, 5000]),
    ("WIN", ["Fine Wine & Spirits"],
     ["Case of claret", "Single malt whisky", "Vintage port", "Champagne magnum", "Burgundy, six bottles"],
     [None], [80, 200, 600, 1500]),
    ("BKS", ["Books & Manuscripts", "Maps & Atlases"],
     ["First edition novel", "Folio atlas", "Signed letter", "Illustrated herbal", "County map"],
     ["Walter Scott", "Robert Burns", "John Speed", None], [100, 300, 900, 3000]),
]  # fmt: skip
AUCTION_FIRST = ["Alasdair", "Beatrice", "Callum", "Deirdre", "Euan", "Flora", "Gordon", "Heather", "Iain", "Jean",
                 "Kirsty", "Lachlan", "Morag", "Neil", "Rory", "Sheena", "Tam", "Una"]  # fmt: skip
AUCTION_LAST = ["Anderson", "Buchanan", "Cameron", "Douglas", "Fraser", "Graham", "Hamilton", "Kerr", "Lindsay",
                "Munro", "Reid", "Robertson", "Scott", "Stewart", "Thomson", "Wallace"]  # fmt: skip


def _auction_sales(connection: sqlite3.Connection, rng: random.Random) -> list[tuple]:
    """Salerooms, 36 sales, specialists and who ran each sale, 150 consignors and the lots; returns (sale, lot, low
    estimate, reserve, withdrawn, sale date, premium) of each lot."""
    connection.executemany("INSERT INTO saleroom VALUES (?, ?, ?, ?, ?, ?, ?)", AUCTION_ROOMS)
    specialists = []
    for spec_id in range(1, 23):
        dept = AUCTION_DEPTS[(spec_id - 1) % len(AUCTION_DEPTS)][0]
        connection.execute(
            "INSERT INTO specialist VALUES (?, ?, ?, ?, ?, ?, ?)",
            (spec_id, rng.choice(AUCTION_FIRST), rng.choice(AUCTION_LAST), dept,
             None if rng.random() < 0.15 else rng.choice(AUCTION_ROOMS)[0], rng.randint(1994, 2024),
             int(rng.random() < 0.35)),
        )  # fmt: skip
        specialists.append((spec_id, dept))
    for consignor_id in range(1, 151):
        trade = int(rng.random() < 0.2)
        connection.execute(
            "INSERT INTO consignor VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (consignor_id, rng.choice(AUCTION_FIRST), rng.choice(AUCTION_LAST),
             rng.choice(["Castle Antiques", "Reid & Son", "Northern Fine Art", "Heritage Clocks"]) if trade else None,
             rng.choices(["GB", "IE", "US", "FR"], [85, 6, 5, 4])[0], 10.0 if trade else rng.choice([12.5, 15.0, 15.0]),
             trade, int(trade or rng.random() < 0.05)),
        )  # fmt: skip
    lots = []
    for sale_no in range(1, 37):
        dept, titles, descriptions, makers, bands = rng.choice(AUCTION_DEPTS)
        room = rng.choice(AUCTION_ROOMS)[0]
        day = date(2024, 1, 16) + timedelta(days=rng.randint(0, 700))
        premium = rng.choice([22.0, 25.0, 25.0, 27.5])
        connection.execute(
            "INSERT INTO sale VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (sale_no, room, rng.choice(titles), dept, day.isoformat(), premium, int(rng.random() < 0.3),
             int(rng.random() < 0.06)),
        )  # fmt: skip
        staff = [s for s, d in specialists if d == dept]
        for position, spec_id in enumerate(rng.sample(staff, min(len(staff), rng.randint(1, 3)))):
            connection.execute(
                "INSERT INTO sale_specialist VALUES (?, ?, ?)", (sale_no, spec_id, "LEAD" if position == 0 else "CAT")
            )
        for lot_no in range(1, rng.randint(18, 34) + 1):
            low = rng.choice(bands)
            withdrawn = int(rng.random() < 0.04)
            reserve = None if rng.random() < 0.3 else int(low * 0.8)
            maker = rng.choice(makers)
            connection.execute(
                "INSERT INTO lot VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (sale_no, lot_no, rng.randint(1, 150), rng.choice(descriptions), maker,
                 None if rng.random() < 0.35 else rng.randint(1760, 1990), low, int(low * 1.5), reserve,
                 int(maker is not None and dept in ("PIC", "BKS") and rng.random() < 0.6),
                 int(dept == "PIC" and rng.random() < 0.85), withdrawn),
            )  # fmt: skip
            lots.append((sale_no, lot_no, low, reserve, withdrawn, day, premium))
    return lots


def _auction_bidding(connection: sqlite3.Connection, rng: random.Random, lots: list[tuple]) -> None:
    """260 registered bidders, their bids on each lot and the lots they bought."""
    for paddle_no in range(101, 361):
        first, last = rng.choice(AUCTION_FIRST), rng.choice(AUCTION_LAST)
        connection.execute(
            "INSERT INTO bidder VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (paddle_no, first, last,
             None if rng.random() < 0.2 else f"{first[0].lower()}{last.lower()}{paddle_no}@example.net",
             rng.choices(["GB", "US", "IE", "HK", "DE"], [70, 10, 8, 6, 6])[0],
             (date(2019, 1, 1) + timedelta(days=rng.randint(0, 2200))).isoformat(), int(rng.random() < 0.15),
             int(rng.random() < 0.8)),
        )  # fmt: skip
    bid_id = 0
    for sale_no, lot_no, low, reserve, withdrawn, day, premium in lots:
        if withdrawn:
            continue
        amount = int(low * rng.choice([0.6, 0.7, 0.8]))
        when = datetime.combine(day, datetime.min.time()) + timedelta(hours=10, minutes=2 * lot_no)
        last_paddle = None
        for _ in range(rng.choices([0, 1, 2, 3, 4, 6, 9], [12, 14, 18, 18, 16, 14, 8])[0]):
            bid_id += 1
            last_paddle = rng.randint(101, 360)
            amount = int(amount * rng.choice([1.1, 1.1, 1.2]))
            when += timedelta(seconds=rng.randint(5, 40))
            connection.execute(
                "INSERT INTO bid VALUES (?, ?, ?, ?, ?, ?, ?)",
                (bid_id, sale_no, lot_no, last_paddle, amount,
                 rng.choices(["ROOM", "PHONE", "ONLINE", "COMM"], [35, 15, 40, 10])[0],
                 when.isoformat(sep=" ", timespec="seconds")),
            )  # fmt: skip
        if last_paddle is None or (reserve is not None and amount < reserve):
            continue
        paid = None if rng.random() < 0.12 else (day + timedelta(days=rng.randint(1, 30))).isoformat()
        shipping = int(rng.random() < 0.3)
        connection.execute(
            "INSERT INTO purchase VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (sale_no, lot_no, last_paddle, amount, round(amount * premium / 100, 2), paid, shipping,
             int(paid is not None and not shipping and rng.random() < 0.9)),
        )  # fmt: skip


def build_auction_database(path: str | Path, seed: int = 35) -> Path:
    """Write the auction house's database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, AUCTION_SCHEMA, seed) as (connection, rng):
        _auction_bidding(connection, rng, _auction_sales(connection, rng))
    return Path(path)


INSURER_SCHEMA = """
CREATE TABLE broker (
    brk_cd TEXT PRIMARY KEY,
    brk_nm TEXT NOT NULL,
    town_nm TEXT NOT NULL,
    fca_ref TEXT NOT NULL UNIQUE,
    appointed_yr INTEGER,
    tied INTEGER NOT NULL,
    preferred INTEGER NOT NULL
);
CREATE TABLE product (
    prod_cd TEXT PRIMARY KEY,
    prod_nm TEXT NOT NULL,
    line_cd TEXT NOT NULL,
    min_prem_amt REAL NOT NULL,
    vol_xs_amt REAL NOT NULL,
    comprehensive INTEGER NOT NULL,
    discontinued INTEGER NOT NULL
);
CREATE TABLE policyholder (
    ph_id INTEGER PRIMARY KEY,
    title TEXT,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    birth_dt TEXT,
    postcode TEXT NOT NULL,
    email_addr TEXT,
    occ_cd TEXT,
    ncd_yrs INTEGER NOT NULL,
    homeowner INTEGER NOT NULL,
    vulnerable INTEGER NOT NULL
);
CREATE TABLE policy (
    pol_no TEXT PRIMARY KEY,
    ph_id INTEGER NOT NULL REFERENCES policyholder (ph_id),
    prod_cd TEXT NOT NULL REFERENCES product (prod_cd),
    brk_cd TEXT REFERENCES broker (brk_cd),
    inception_dt TEXT NOT NULL,
    lapse_dt TEXT,
    prem_amt REAL NOT NULL,
    pay_freq_cd TEXT NOT NULL,
    auto_renewal INTEGER NOT NULL,
    telematics INTEGER NOT NULL,
    cancelled INTEGER NOT NULL
);
CREATE TABLE vehicle (
    reg_no TEXT PRIMARY KEY,
    make_nm TEXT NOT NULL,
    model_nm TEXT NOT NULL,
    first_reg_yr INTEGER NOT NULL,
    engine_cc INTEGER,
    ins_grp INTEGER NOT NULL,
    fuel_cd TEXT NOT NULL,
    modified INTEGER NOT NULL
);
CREATE TABLE policy_vehicle (
    pol_no TEXT NOT NULL REFERENCES policy (pol_no),
    reg_no TEXT NOT NULL REFERENCES vehicle (reg_no),
    added_dt TEXT NOT NULL,
    annual_mls INTEGER NOT NULL,
    garaged INTEGER NOT NULL,
    PRIMARY KEY (pol_no, reg_no)
);
CREATE TABLE named_driver (
    pol_no TEXT NOT NULL REFERENCES policy (pol_no),
    ph_id INTEGER NOT NULL REFERENCES policyholder (ph_id),
    rel_cd TEXT NOT NULL,
    lic_yrs INTEGER NOT NULL,
    learner INTEGER NOT NULL,
    PRIMARY KEY (pol_no, ph_id)
);
CREATE TABLE adjuster (
    adj_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    region_cd TEXT NOT NULL,
    grade_lvl INTEGER NOT NULL,
    hired_dt TEXT NOT NULL,
    chartered INTEGER NOT NULL,
    contractor INTEGER NOT NULL
);
CREATE TABLE claim (
    clm_ref TEXT PRIMARY KEY,
    pol_no TEXT NOT NULL REFERENCES policy (pol_no),
    reg_no TEXT,
    adj_id INTEGER REFERENCES adjuster (adj_id),
    loss_dt TEXT NOT NULL,
    notified_dt TEXT NOT NULL,
    peril_cd TEXT NOT NULL,
    reserve_amt REAL NOT NULL,
    settled_amt REAL,
    status_cd TEXT NOT NULL,
    fraud_referral INTEGER NOT NULL,
    disputed INTEGER NOT NULL,
    FOREIGN KEY (pol_no, reg_no) REFERENCES policy_vehicle (pol_no, reg_no)
);
CREATE TABLE claim_payment (
    clm_ref TEXT NOT NULL REFERENCES claim (clm_ref),
    pmt_no INTEGER NOT NULL,
    paid_dt TEXT NOT NULL,
    pmt_amt REAL NOT NULL,
    payee_cd TEXT NOT NULL,
    ex_gratia INTEGER NOT NULL,
    PRIMARY KEY (clm_ref, pmt_no)
);
"""

# code, name, town, FCA reference, year appointed, tied, preferred
INSURER_BROKERS = [
    ("NWB", "Northgate Brokers", "Leeds", "FRN301122", 2009, 0, 1),
    ("HCI", "Harrow & Co Insurance", "Sheffield", "FRN412087", None, 0, 0),
    ("PDL", "Peak District Lines", "Buxton", "FRN455901", 2015, 1, 0),
    ("YMB", "York Motor Brokers", "York", "FRN290345", 2003, 0, 1),
    ("NWB2", "Northgate Brokers", "Harrogate", "FRN301123", 2018, 0, 0),
    ("CLC", "Calder Cover", "Halifax", "FRN508812", None, 1, 0),
]  # fmt: skip
# code, name, line, minimum premium, voluntary excess, comprehensive, discontinued
INSURER_PRODUCTS = [
    ("MOT-CMP", "Motor Comprehensive", "MOT", 310.0, 250.0, 1, 0),
    ("MOT-TPF", "Motor Third Party Fire and Theft", "MOT", 240.0, 250.0, 0, 0),
    ("MOT-YD", "Young Driver Motor", "MOT", 690.0, 500.0, 1, 0),
    ("MOT-CLS", "Classic Car", "MOT", 150.0, 100.0, 1, 1),
    ("HOM-BLD", "Home Buildings", "HOM", 140.0, 100.0, 1, 0),
    ("HOM-CNT", "Home Contents", "HOM", 85.0, 50.0, 0, 0),
    ("HOM-LND", "Landlord Buildings", "HOM", 220.0, 250.0, 1, 1),
]  # fmt: skip
INSURER_FIRST = ["Aisha", "Ben", "Chloe", "Daniel", "Emily", "George", "Hannah", "Imran", "Jack", "Katie", "Liam",
                 "Megan", "Nathan", "Olivia", "Priya", "Ryan", "Sophie", "Tom"]  # fmt: skip
INSURER_LAST = ["Ahmed", "Bailey", "Brown", "Clarke", "Hussain", "Jackson", "Kaur", "Mitchell", "Patel", "Robinson",
                "Shaw", "Smith", "Taylor", "Walker", "Wood", "Wright"]  # fmt: skip
# make, model, engine cc (None: electric), insurance group range
INSURER_MODELS = [
    ("Ford", "Fiesta", 1000, (7, 14)), ("Ford", "Focus", 1500, (12, 20)), ("Vauxhall", "Corsa", 1200, (5, 13)),
    ("Volkswagen", "Golf", 1500, (14, 24)), ("Toyota", "Yaris", 1500, (9, 15)), ("Nissan", "Leaf", None, (21, 26)),
    ("Tesla", "Model 3", None, (48, 50)), ("BMW", "3 Series", 2000, (28, 36)), ("Kia", "Sportage", 1600, (17, 23)),
    ("Mini", "Cooper", 1500, (16, 22)), ("MG", "B", 1800, (20, 24)),
]  # fmt: skip


def _insurer_people(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Brokers, products, 260 policyholders and 14 adjusters."""
    connection.executemany("INSERT INTO broker VALUES (?, ?, ?, ?, ?, ?, ?)", INSURER_BROKERS)
    connection.executemany("INSERT INTO product VALUES (?, ?, ?, ?, ?, ?, ?)", INSURER_PRODUCTS)
    for ph_id in range(1, 261):
        born = date(1945, 1, 1) + timedelta(days=rng.randint(0, 21000))
        connection.execute(
            "INSERT INTO policyholder VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (ph_id, None if rng.random() < 0.35 else rng.choice(["Mr", "Mrs", "Ms", "Miss", "Dr"]),
             rng.choice(INSURER_FIRST), rng.choice(INSURER_LAST), None if rng.random() < 0.08 else born.isoformat(),
             f"{rng.choice(['LS', 'S', 'YO', 'HX', 'HG', 'SK'])}{rng.randint(1, 28)} {rng.randint(1, 9)}"
             f"{rng.choice('ABDEFGHJLNPQRSTUWXYZ')}{rng.choice('ABDEFGHJLNPQRSTUWXYZ')}",
             None if rng.random() < 0.12 else f"ph{ph_id}@example.net",
             None if rng.random() < 0.2 else rng.choice(["A01", "C12", "E05", "M33", "R07", "S40", "T18"]),
             rng.choices(range(10), [20, 12, 10, 9, 8, 8, 7, 7, 6, 13])[0], int(rng.random() < 0.55),
             int(rng.random() < 0.06)),
        )  # fmt: skip
    for adj_id in range(1, 15):
        connection.execute(
            "INSERT INTO adjuster VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (adj_id, rng.choice(INSURER_FIRST), rng.choice(INSURER_LAST), rng.choice(["NE", "YH", "NW", "EM"]),
             rng.randint(1, 4), (date(2006, 1, 1) + timedelta(days=rng.randint(0, 6500))).isoformat(),
             int(rng.random() < 0.4), int(adj_id > 11)),
        )  # fmt: skip


def _insurer_policies(connection: sqlite3.Connection, rng: random.Random) -> list[tuple]:
    """420 policies, the vehicles on motor policies and their named drivers; returns (policy, start, vehicles) rows."""
    policies, plate = [], 0
    for number in range(1, 421):
        pol_no = f"{'MP' if number % 3 else 'HP'}-{4000 + number * 7:06d}"
        product = rng.choice([p for p in INSURER_PRODUCTS if (p[2] == "MOT") == pol_no.startswith("MP")])
        start = date(2022, 1, 1) + timedelta(days=rng.randint(0, 1000))
        lapsed = rng.random() < 0.2
        connection.execute(
            "INSERT INTO policy VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (pol_no, rng.randint(1, 260), product[0], None if rng.random() < 0.4 else rng.choice(INSURER_BROKERS)[0],
             start.isoformat(), (start + timedelta(days=365 * rng.randint(1, 3))).isoformat() if lapsed else None,
             round(product[3] * rng.uniform(1.0, 2.6), 2), rng.choices(["M", "A"], [65, 35])[0],
             int(rng.random() < 0.7), int(product[2] == "MOT" and rng.random() < 0.2), int(rng.random() < 0.05)),
        )  # fmt: skip
        vehicles = []
        if product[2] == "MOT":
            for _ in range(rng.choices([1, 2], [85, 15])[0]):
                plate += 1
                make, model, cc, (low, high) = rng.choice(INSURER_MODELS)
                letters = "".join("ABCDEFGHJKLMNPRSTUVWXY"[plate // 22**k % 22] for k in (2, 1, 0))
                reg_no = f"{rng.choice(['YA', 'YB', 'YC', 'YD', 'YE', 'YF'])}{rng.randint(10, 74)} {letters}"
                year = 1968 if model == "B" else rng.randint(2008, 2024)
                connection.execute(
                    "INSERT INTO vehicle VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (reg_no, make, model, year, cc, rng.randint(low, high),
                     "EV" if cc is None else rng.choices(["PET", "DSL", "HYB"], [70, 20, 10])[0],
                     int(rng.random() < 0.07)),
                )  # fmt: skip
                connection.execute(
                    "INSERT INTO policy_vehicle VALUES (?, ?, ?, ?, ?)",
                    (pol_no, reg_no, (start + timedelta(days=rng.choice([0, 0, 0, 40, 120]))).isoformat(),
                     rng.choice([3000, 5000, 6000, 8000, 10000, 12000, 15000]), int(rng.random() < 0.3)),
                )  # fmt: skip
                vehicles.append(reg_no)
            for ph_id in rng.sample(range(1, 261), rng.choices([0, 1, 2], [55, 35, 10])[0]):
                connection.execute(
                    "INSERT INTO named_driver VALUES (?, ?, ?, ?, ?)",
                    (pol_no, ph_id, rng.choice(["SPO", "CHD", "PAR", "OTH"]), rng.randint(0, 30),
                     int(rng.random() < 0.08)),
                )  # fmt: skip
        policies.append((pol_no, start, vehicles))
    return policies


def _insurer_claims(connection: sqlite3.Connection, rng: random.Random, policies: list[tuple]) -> None:
    """320 claims (a vehicle of the policy for motor claims, a two-column foreign key) and their payments."""
    perils = {"MOT": ["COL", "THF", "WSC", "FIR", "VAN"], "HOM": ["ESC", "STM", "FLD", "THF", "ACC", "SUB"]}
    for number in range(1, 321):
        pol_no, start, vehicles = rng.choice(policies)
        loss = start + timedelta(days=rng.randint(5, 700))
        status = rng.choices(["OPN", "STL", "REJ", "WDN"], [25, 55, 12, 8])[0]
        reserve = round(rng.choice([250, 400, 750, 1200, 2500, 6000, 15000]) * rng.uniform(0.8, 1.3), 2)
        settled = round(reserve * rng.uniform(0.4, 1.1), 2) if status == "STL" else None
        clm_ref = f"CLM-{loss.year}-{number:05d}"
        connection.execute(
            "INSERT INTO claim VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (clm_ref, pol_no, rng.choice(vehicles) if vehicles else None,
             None if status == "OPN" and rng.random() < 0.4 else rng.randint(1, 14), loss.isoformat(),
             (loss + timedelta(days=rng.choices([0, 1, 2, 7, 30], [30, 30, 20, 15, 5])[0])).isoformat(),
             rng.choice(perils["MOT" if vehicles else "HOM"]), reserve, settled, status, int(rng.random() < 0.04),
             int(status == "REJ" and rng.random() < 0.5)),
        )  # fmt: skip
        if settled:
            parts = rng.choices([1, 2, 3], [60, 30, 10])[0]
            for pmt_no in range(1, parts + 1):
                connection.execute(
                    "INSERT INTO claim_payment VALUES (?, ?, ?, ?, ?, ?)",
                    (clm_ref, pmt_no, (loss + timedelta(days=20 * pmt_no + rng.randint(0, 30))).isoformat(),
                     round(settled / parts, 2), rng.choice(["PH", "GAR", "TPI", "CON"]), int(rng.random() < 0.03)),
                )  # fmt: skip


def build_insurer_database(path: str | Path, seed: int = 35) -> Path:
    """Write the motor and home insurer's database to `path` (replacing it) from `seed`; the same seed gives the same
    file."""
    with _fresh_database(path, INSURER_SCHEMA, seed) as (connection, rng):
        _insurer_people(connection, rng)
        _insurer_claims(connection, rng, _insurer_policies(connection, rng))
    return Path(path)


BIKESHARE_SCHEMA = """
CREATE TABLE district (
    dist_cd TEXT PRIMARY KEY,
    dist_nm TEXT NOT NULL UNIQUE,
    council_nm TEXT NOT NULL,
    low_traffic INTEGER NOT NULL
);
CREATE TABLE station (
    stn_id INTEGER PRIMARY KEY,
    stn_nm TEXT NOT NULL,
    dist_cd TEXT NOT NULL REFERENCES district (dist_cd),
    dock_cnt INTEGER NOT NULL,
    opened_dt TEXT,
    elev_m INTEGER,
    hub INTEGER NOT NULL,
    covered INTEGER NOT NULL,
    sponsored INTEGER NOT NULL
);
CREATE TABLE dock (
    stn_id INTEGER NOT NULL REFERENCES station (stn_id),
    dock_no INTEGER NOT NULL,
    installed_yr INTEGER NOT NULL,
    charger INTEGER NOT NULL,
    faulty INTEGER NOT NULL,
    PRIMARY KEY (stn_id, dock_no)
);
CREATE TABLE bike (
    bike_no INTEGER PRIMARY KEY,
    frame_ref TEXT NOT NULL UNIQUE,
    model_cd TEXT NOT NULL,
    electric INTEGER NOT NULL,
    batt_cap_wh INTEGER,
    commissioned_dt TEXT NOT NULL,
    odo_km REAL NOT NULL,
    retired INTEGER NOT NULL
);
CREATE TABLE plan (
    plan_cd TEXT PRIMARY KEY,
    plan_nm TEXT NOT NULL,
    monthly_fee_amt REAL NOT NULL,
    incl_min INTEGER,
    per_min_rt REAL NOT NULL,
    annual INTEGER NOT NULL
);
CREATE TABLE rider (
    rider_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    birth_yr INTEGER,
    email_addr TEXT,
    plan_cd TEXT REFERENCES plan (plan_cd),
    joined_dt TEXT NOT NULL,
    concession INTEGER NOT NULL,
    verified INTEGER NOT NULL
);
CREATE TABLE trip (
    trip_id INTEGER PRIMARY KEY,
    bike_no INTEGER NOT NULL REFERENCES bike (bike_no),
    rider_id INTEGER REFERENCES rider (rider_id),
    start_stn_id INTEGER NOT NULL REFERENCES station (stn_id),
    end_stn_id INTEGER,
    end_dock_no INTEGER,
    start_ts TEXT NOT NULL,
    dur_min INTEGER,
    dist_km REAL,
    fare_amt REAL NOT NULL,
    group_ride INTEGER NOT NULL,
    FOREIGN KEY (end_stn_id, end_dock_no) REFERENCES dock (stn_id, dock_no)
);
CREATE TABLE mechanic (
    mech_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    depot_nm TEXT NOT NULL,
    senior INTEGER NOT NULL,
    contractor INTEGER NOT NULL
);
CREATE TABLE repair (
    rep_id INTEGER PRIMARY KEY,
    bike_no INTEGER NOT NULL REFERENCES bike (bike_no),
    opened_dt TEXT NOT NULL,
    closed_dt TEXT,
    fault_cd TEXT NOT NULL,
    parts_amt REAL,
    warranty INTEGER NOT NULL
);
CREATE TABLE repair_mechanic (
    rep_id INTEGER NOT NULL REFERENCES repair (rep_id),
    mech_id INTEGER NOT NULL REFERENCES mechanic (mech_id),
    hrs REAL NOT NULL,
    lead INTEGER NOT NULL,
    PRIMARY KEY (rep_id, mech_id)
);
"""

# code, name, council, low-traffic neighbourhood
BIKESHARE_DISTRICTS = [
    ("CEN", "City Centre", "Bristol City Council", 1), ("HAR", "Harbourside", "Bristol City Council", 0),
    ("CLF", "Clifton", "Bristol City Council", 0), ("BED", "Bedminster", "Bristol City Council", 1),
    ("KWD", "Kingswood", "South Gloucestershire Council", 0), ("BTH", "Bath City", "Bath and North East Somerset", 1),
]  # fmt: skip
# name, district; names repeat over districts (a Station Road in two of them)
BIKESHARE_STATIONS = [
    ("Temple Meads", "CEN"), ("Broadmead", "CEN"), ("College Green", "CEN"), ("Queen Square", "CEN"),
    ("Station Road", "CEN"), ("Wapping Wharf", "HAR"), ("Millennium Square", "HAR"), ("Spike Island", "HAR"),
    ("Whiteladies Road", "CLF"), ("Clifton Village", "CLF"), ("Suspension Bridge", "CLF"), ("North Street", "BED"),
    ("East Street", "BED"), ("Station Road", "KWD"), ("Regent Street", "KWD"), ("Bath Spa", "BTH"),
    ("Royal Crescent", "BTH"), ("Queen Square", "BTH"),
]  # fmt: skip
BIKESHARE_PLANS = [
    ("PAYG", "Pay as you go", 0.0, 0, 0.12, 0), ("M30", "Monthly 30", 9.0, 30, 0.08, 0),
    ("M60", "Monthly 60", 15.0, 60, 0.06, 0), ("ANN", "Annual unlimited", 8.25, None, 0.0, 1),
    ("STU", "Student annual", 5.0, None, 0.0, 1),
]  # fmt: skip
BIKESHARE_FIRST = ["Alfie", "Bella", "Callum", "Daisy", "Ethan", "Freya", "Harvey", "Isla", "Jude", "Lily", "Mason",
                   "Niamh", "Oscar", "Ruby", "Samir", "Tilly", "Yusuf", "Zara"]  # fmt: skip
BIKESHARE_LAST = ["Allen", "Baker", "Carter", "Collins", "Green", "Hall", "Harris", "James", "King", "Lee", "Moore",
                  "Scott", "Turner", "Ward", "White"]  # fmt: skip


def _bikeshare_network(connection: sqlite3.Connection, rng: random.Random) -> list[tuple]:
    """Districts, 18 stations and their docks, 160 bikes; returns the (station, dock) pairs."""
    connection.executemany("INSERT INTO district VALUES (?, ?, ?, ?)", BIKESHARE_DISTRICTS)
    docks = []
    for stn_id, (name, district) in enumerate(BIKESHARE_STATIONS, start=1):
        count = rng.choice([8, 10, 12, 16, 20])
        connection.execute(
            "INSERT INTO station VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (stn_id, name, district, count,
             None if rng.random() < 0.15 else (date(2019, 3, 1) + timedelta(days=rng.randint(0, 1800))).isoformat(),
             None if rng.random() < 0.1 else rng.randint(5, 95), int(count >= 16), int(rng.random() < 0.3),
             int(rng.random() < 0.25)),
        )  # fmt: skip
        for dock_no in range(1, count + 1):
            connection.execute(
                "INSERT INTO dock VALUES (?, ?, ?, ?, ?)",
                (stn_id, dock_no, rng.choice([2019, 2020, 2021, 2023]), int(rng.random() < 0.4),
                 int(rng.random() < 0.05)),
            )  # fmt: skip
            docks.append((stn_id, dock_no))
    for bike_no in range(1001, 1161):
        electric = int(rng.random() < 0.45)
        connection.execute(
            "INSERT INTO bike VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (bike_no, f"WTU{rng.randint(100000, 999999)}{rng.choice('ABCDEFGH')}",
             rng.choice(["EB-2", "EB-3"]) if electric else rng.choice(["PB-1", "PB-2"]),
             electric, rng.choice([418, 500, 630]) if electric else None,
             (date(2019, 3, 1) + timedelta(days=rng.randint(0, 1900))).isoformat(),
             round(rng.uniform(120, 9500), 1), int(rng.random() < 0.08)),
        )  # fmt: skip
    return docks


def _bikeshare_riding(connection: sqlite3.Connection, rng: random.Random, docks: list[tuple]) -> None:
    """Plans, 280 riders and 1,300 trips (NULL riders of casual hires; NULL ends of bikes not docked)."""
    connection.executemany("INSERT INTO plan VALUES (?, ?, ?, ?, ?, ?)", BIKESHARE_PLANS)
    for rider_id in range(1, 281):
        connection.execute(
            "INSERT INTO rider VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (rider_id, rng.choice(BIKESHARE_FIRST), rng.choice(BIKESHARE_LAST),
             None if rng.random() < 0.25 else rng.randint(1950, 2007),
             None if rng.random() < 0.1 else f"r{rider_id}@example.com",
             None if rng.random() < 0.1 else rng.choices([p[0] for p in BIKESHARE_PLANS], [35, 20, 15, 20, 10])[0],
             (date(2019, 3, 1) + timedelta(days=rng.randint(0, 2400))).isoformat(), int(rng.random() < 0.12),
             int(rng.random() < 0.85)),
        )  # fmt: skip
    for trip_id in range(1, 1301):
        start = datetime(2025, 9, 1, 6, 0) + timedelta(days=rng.randint(0, 80), minutes=5 * rng.randint(0, 200))
        ended = rng.random() > 0.02
        end_stn, end_dock = rng.choice(docks) if ended else (None, None)
        minutes = rng.randint(3, 75) if ended else None
        connection.execute(
            "INSERT INTO trip VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (trip_id, rng.randint(1001, 1160), rng.randint(1, 280) if rng.random() < 0.75 else None,
             rng.randint(1, len(BIKESHARE_STATIONS)), end_stn, end_dock,
             start.isoformat(sep=" ", timespec="minutes"), minutes,
             round(minutes * rng.uniform(0.12, 0.3), 2) if minutes else None,
             round(1.0 + 0.1 * (minutes or 90), 2) if rng.random() < 0.5 else 0.0, int(rng.random() < 0.05)),
        )  # fmt: skip


def _bikeshare_repairs(connection: sqlite3.Connection, rng: random.Random) -> None:
    """Nine mechanics, 240 repairs and who worked on each (a composite key, the lead mechanic flagged)."""
    for mech_id in range(1, 10):
        connection.execute(
            "INSERT INTO mechanic VALUES (?, ?, ?, ?, ?, ?)",
            (mech_id, rng.choice(BIKESHARE_FIRST), rng.choice(BIKESHARE_LAST),
             rng.choice(["St Philips Depot", "Bath Depot"]), int(mech_id <= 3), int(mech_id >= 8)),
        )  # fmt: skip
    for rep_id in range(1, 241):
        opened = date(2025, 1, 6) + timedelta(days=rng.randint(0, 320))
        closed = None if rng.random() < 0.1 else opened + timedelta(days=rng.randint(0, 12))
        connection.execute(
            "INSERT INTO repair VALUES (?, ?, ?, ?, ?, ?, ?)",
            (rep_id, rng.randint(1001, 1160), opened.isoformat(), closed.isoformat() if closed else None,
             rng.choice(["BRK", "TYR", "CHN", "BAT", "LCK", "LGT", "FRM"]),
             None if closed is None else round(rng.choice([0, 4.5, 12.0, 18.9, 35.0, 120.0]), 2),
             int(rng.random() < 0.15)),
        )  # fmt: skip
        crew = rng.sample(range(1, 10), rng.choices([1, 2, 3], [65, 28, 7])[0])
        for place, mech_id in enumerate(crew):
            connection.execute(
                "INSERT INTO repair_mechanic VALUES (?, ?, ?, ?)",
                (rep_id, mech_id, rng.choice([0.25, 0.5, 1.0, 1.5, 2.0, 3.0]), int(place == 0)),
            )


def build_bikeshare_database(path: str | Path, seed: int = 35) -> Path:
    """Write the bike-share scheme's database to `path` (replacing it) from `seed`; the same seed gives the same
    file."""
    with _fresh_database(path, BIKESHARE_SCHEMA, seed) as (connection, rng):
        _bikeshare_riding(connection, rng, _bikeshare_network(connection, rng))
        _bikeshare_repairs(connection, rng)
    return Path(path)


WINERY_SCHEMA = """
CREATE TABLE grower (
    grower_id INTEGER PRIMARY KEY,
    grower_nm TEXT NOT NULL,
    region_cd TEXT NOT NULL,
    contract_no TEXT NOT NULL UNIQUE,
    vineyard_ha REAL,
    joined_yr INTEGER,
    organic INTEGER NOT NULL
);
CREATE TABLE variety (
    var_cd TEXT PRIMARY KEY,
    var_nm TEXT NOT NULL UNIQUE,
    colour TEXT NOT NULL,
    ripening_wk INTEGER NOT NULL
);
CREATE TABLE block (
    grower_id INTEGER NOT NULL REFERENCES grower (grower_id),
    block_no INTEGER NOT NULL,
    block_nm TEXT NOT NULL,
    var_cd TEXT NOT NULL REFERENCES variety (var_cd),
    area_ha REAL NOT NULL,
    planted_yr INTEGER,
    vines_qty INTEGER NOT NULL,
    irrigated INTEGER NOT NULL,
    PRIMARY KEY (grower_id, block_no)
);
CREATE TABLE staff (
    staff_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    role_cd TEXT NOT NULL,
    hired_dt TEXT NOT NULL,
    wset_lvl INTEGER,
    seasonal INTEGER NOT NULL
);
CREATE TABLE intake (
    intake_no INTEGER PRIMARY KEY,
    grower_id INTEGER NOT NULL,
    block_no INTEGER NOT NULL,
    intake_dt TEXT NOT NULL,
    vintage_yr INTEGER NOT NULL,
    grapes_kg REAL NOT NULL,
    brix REAL NOT NULL,
    temp_c REAL,
    docket_ref TEXT NOT NULL UNIQUE,
    hand_picked INTEGER NOT NULL,
    rejected INTEGER NOT NULL,
    FOREIGN KEY (grower_id, block_no) REFERENCES block (grower_id, block_no)
);
CREATE TABLE tank (
    tank_id INTEGER PRIMARY KEY,
    tank_cd TEXT NOT NULL UNIQUE,
    material TEXT NOT NULL,
    capacity_l INTEGER NOT NULL,
    installed_yr INTEGER,
    temp_controlled INTEGER NOT NULL
);
CREATE TABLE lot (
    lot_cd TEXT PRIMARY KEY,
    lot_nm TEXT NOT NULL,
    vintage_yr INTEGER NOT NULL,
    tank_id INTEGER REFERENCES tank (tank_id),
    winemaker INTEGER NOT NULL,
    must_l REAL NOT NULL,
    abv_pct REAL,
    ph REAL,
    so2_mg_l INTEGER,
    barrel_months INTEGER,
    malolactic INTEGER NOT NULL
);
CREATE TABLE lot_intake (
    lot_cd TEXT NOT NULL REFERENCES lot (lot_cd),
    intake_no INTEGER NOT NULL REFERENCES intake (intake_no),
    press_l REAL NOT NULL,
    free_run INTEGER NOT NULL,
    PRIMARY KEY (lot_cd, intake_no)
);
CREATE TABLE wine (
    wine_id INTEGER PRIMARY KEY,
    wine_nm TEXT NOT NULL,
    lot_cd TEXT NOT NULL REFERENCES lot (lot_cd),
    sku TEXT NOT NULL UNIQUE,
    bottle_ml INTEGER NOT NULL,
    bottles_qty INTEGER NOT NULL,
    rrp_amt REAL NOT NULL,
    release_dt TEXT,
    screwcap INTEGER NOT NULL,
    vegan INTEGER NOT NULL
);
CREATE TABLE shipment (
    ship_ref TEXT PRIMARY KEY,
    wine_id INTEGER NOT NULL REFERENCES wine (wine_id),
    customer_nm TEXT NOT NULL,
    country_cd TEXT NOT NULL,
    ship_dt TEXT NOT NULL,
    cases_qty INTEGER NOT NULL,
    pallet_kg REAL NOT NULL,
    invoice_amt REAL NOT NULL,
    bonded INTEGER NOT NULL
);
"""

# name, region code; a name repeated in two regions
WINERY_GROWERS = [
    ("Hillcrest Vineyards", "MCL"), ("Old Creek Farm", "MCL"), ("Stony Ridge", "BAR"), ("Kalimna Estate", "BAR"),
    ("Greenock Hill", "BAR"), ("Bluegum Flat", "ADH"), ("Piccadilly Valley Growers", "ADH"),
    ("Hillcrest Vineyards", "EDV"), ("Ironstone Block", "EDV"), ("Seaview Terraces", "MCL"), ("Wattle Park", "CLV"),
    ("Polish Hill River", "CLV"), ("Mount Barker Rise", "ADH"), ("Eden Springs", "EDV"),
]  # fmt: skip
# code, name, colour, week ripening starts
WINERY_VARIETIES = [
    ("SHZ", "Shiraz", "red", 10), ("CAB", "Cabernet Sauvignon", "red", 12), ("GRE", "Grenache", "red", 11),
    ("MAT", "Mataro", "red", 13), ("CHA", "Chardonnay", "white", 7), ("RIE", "Riesling", "white", 8),
    ("SAB", "Sauvignon Blanc", "white", 6), ("PIN", "Pinot Noir", "red", 7), ("SEM", "Semillon", "white", 9),
]  # fmt: skip
WINERY_BLOCK_NAMES = ["Home Block", "Creek Block", "Top Paddock", "Old Vines", "Church Block", "Gully", "Quarry Block",
                      "North Slope", "Dam Block"]  # fmt: skip
WINERY_FIRST = ["Alice", "Ben", "Chloe", "Dylan", "Ella", "Finn", "Grace", "Hamish", "Isabel", "Jack", "Kate", "Liam",
                "Mia", "Noah", "Olivia", "Sam"]  # fmt: skip
WINERY_LAST = ["Anderson", "Brown", "Campbell", "Kelly", "Martin", "Nguyen", "Ryan", "Smith", "Taylor", "Thompson",
               "Walsh", "Wilson"]  # fmt: skip
WINERY_CUSTOMERS = [
    ("Harbour Wine Merchants", "GB"), ("Vinothek Keller", "DE"), ("Nordic Cellars", "SE"),
    ("Pacific Bottle Shop", "NZ"), ("Cellar Door Club", "AU"), ("Maple Fine Wines", "CA"),
    ("Shanghai Grand Wines", "CN"), ("Harbour Wine Merchants", "AU"), ("Tokyo Vintners", "JP"),
]  # fmt: skip


def _winery_vineyards(connection: sqlite3.Connection, rng: random.Random) -> list[tuple]:
    """Growers, varieties, their blocks and 24 staff; returns (grower, block, variety) rows."""
    connection.executemany("INSERT INTO variety VALUES (?, ?, ?, ?)", WINERY_VARIETIES)
    blocks = []
    for grower_id, (name, region) in enumerate(WINERY_GROWERS, start=1):
        connection.execute(
            "INSERT INTO grower VALUES (?, ?, ?, ?, ?, ?, ?)",
            (grower_id, name, region, f"GC-{region}-{100 + grower_id * 13}",
             None if rng.random() < 0.15 else round(rng.uniform(4, 120), 1),
             None if rng.random() < 0.2 else rng.randint(1988, 2021), int(rng.random() < 0.3)),
        )  # fmt: skip
        for block_no in range(1, rng.randint(2, 5) + 1):
            variety = rng.choice(WINERY_VARIETIES)[0]
            area = round(rng.uniform(0.8, 9.5), 2)
            connection.execute(
                "INSERT INTO block VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (grower_id, block_no, rng.choice(WINERY_BLOCK_NAMES), variety, area,
                 None if rng.random() < 0.2 else rng.randint(1912, 2019), int(area * rng.uniform(1800, 2600)),
                 int(rng.random() < 0.6)),
            )  # fmt: skip
            blocks.append((grower_id, block_no, variety))
    roles = ["WMK"] * 4 + ["CEL"] * 8 + ["LAB"] * 3 + ["VIT"] * 4 + ["SAL"] * 5
    for staff_id, role in enumerate(roles, start=1):
        connection.execute(
            "INSERT INTO staff VALUES (?, ?, ?, ?, ?, ?, ?)",
            (staff_id, rng.choice(WINERY_FIRST), rng.choice(WINERY_LAST), role,
             (date(2008, 1, 1) + timedelta(days=rng.randint(0, 5800))).isoformat(),
             None if rng.random() < 0.4 else rng.randint(1, 4), int(role == "CEL" and rng.random() < 0.5)),
        )  # fmt: skip
    return blocks


def _winery_cellar(connection: sqlite3.Connection, rng: random.Random, blocks: list[tuple]) -> list[tuple]:
    """520 intakes over three vintages, 30 tanks, the lots made from them and the link; returns (lot, name, litres)."""
    intakes = []
    for intake_no in range(1, 521):
        grower_id, block_no, variety = rng.choice(blocks)
        vintage = rng.choice([2023, 2024, 2025])
        week = next(v[3] for v in WINERY_VARIETIES if v[0] == variety)
        day = date(vintage, 2, 1) + timedelta(days=7 * week + rng.randint(-10, 20))
        kilos = round(rng.uniform(400, 9000), 0)
        connection.execute(
            "INSERT INTO intake VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (intake_no, grower_id, block_no, day.isoformat(), vintage, kilos, round(rng.uniform(19.5, 26.5), 1),
             None if rng.random() < 0.1 else round(rng.uniform(9, 27), 1),
             f"WD{vintage % 100}-{intake_no * 37 % 9973:04d}",
             int(rng.random() < 0.25), int(rng.random() < 0.04)),
        )  # fmt: skip
        intakes.append((intake_no, vintage, variety, kilos))
    for tank_id in range(1, 31):
        material = rng.choices(["stainless", "oak", "concrete"], [70, 15, 15])[0]
        connection.execute(
            "INSERT INTO tank VALUES (?, ?, ?, ?, ?, ?)",
            (tank_id, f"{material[0].upper()}{tank_id:02d}", material,
             rng.choice([2250, 5000, 10000, 20000, 40000]) if material != "oak" else rng.choice([2250, 4500]),
             None if rng.random() < 0.2 else rng.randint(1995, 2022),
             int(material == "stainless" and rng.random() < 0.8)),
        )  # fmt: skip
    lots, number = [], 0
    for vintage in (2023, 2024, 2025):
        for variety, var_nm, colour, _ in WINERY_VARIETIES:
            pool = [i for i in intakes if i[1] == vintage and i[2] == variety]
            while pool:
                number += 1
                take, pool = pool[: rng.randint(3, 9)], pool[9:]
                lot_cd = f"{vintage % 100}{variety}{number:03d}"
                litres = round(sum(i[3] for i in take) * rng.uniform(0.62, 0.72), 0)
                finished = vintage < 2025
                connection.execute(
                    "INSERT INTO lot VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (lot_cd, f"{vintage} {var_nm} {rng.choice(['Reserve', 'Estate', 'Single Vineyard', 'Estate'])}",
                     vintage, None if finished and rng.random() < 0.5 else rng.randint(1, 30), rng.randint(1, 4),
                     litres,
                     round(rng.uniform(11.5, 15.2), 1) if finished else None, round(rng.uniform(3.1, 3.8), 2),
                     rng.choice([25, 30, 40, 60, 80, 100]) if finished else None,
                     rng.choice([0, 6, 12, 18, 24]) if colour == "red" else None,
                     int(colour == "red" or rng.random() < 0.3)),
                )  # fmt: skip
                for intake_no, _, _, kilos in take:
                    connection.execute(
                        "INSERT INTO lot_intake VALUES (?, ?, ?, ?)",
                        (lot_cd, intake_no, round(kilos * rng.uniform(0.6, 0.72), 0), int(rng.random() < 0.7)),
                    )
                lots.append((lot_cd, var_nm, vintage, litres))
    return lots


def _winery_sales(connection: sqlite3.Connection, rng: random.Random, lots: list[tuple]) -> None:
    """The wines bottled from the finished lots and 400 shipments of them."""
    wines = []
    for lot_cd, var_nm, vintage, litres in lots:
        if vintage == 2025 or rng.random() < 0.3:
            continue
        size = rng.choices([750, 375, 1500], [80, 10, 10])[0]
        wine_id = len(wines) + 1
        connection.execute(
            "INSERT INTO wine VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (wine_id, f"{rng.choice(['Stony Gate', 'Kestrel', 'Old Creek'])} {var_nm}", lot_cd,
             f"KW{vintage % 100}{wine_id:04d}", size, int(litres * 1000 * rng.uniform(0.85, 0.97) / size),
             round(rng.choice([18, 22, 26, 32, 45, 65]) * (1.6 if size == 1500 else 1.0), 2),
             None if rng.random() < 0.1
             else (date(vintage + 1, 3, 1) + timedelta(days=rng.randint(0, 400))).isoformat(),
             int(rng.random() < 0.7), int(rng.random() < 0.2)),
        )  # fmt: skip
        wines.append(wine_id)
    for number in range(1, 401):
        customer, country = rng.choice(WINERY_CUSTOMERS)
        cases = rng.choice([5, 10, 25, 50, 56, 112])
        connection.execute(
            "INSERT INTO shipment VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (f"SH{24000 + number * 3}", rng.choice(wines), customer, country,
             (date(2024, 6, 1) + timedelta(days=rng.randint(0, 540))).isoformat(), cases,
             round(cases * rng.uniform(15.5, 16.5) + 25, 1), round(cases * rng.uniform(90, 300), 2),
             int(country not in ("AU", "NZ") and rng.random() < 0.6)),
        )  # fmt: skip


def build_winery_database(path: str | Path, seed: int = 35) -> Path:
    """Write the winery's database to `path` (replacing it) from `seed`; the same seed gives the same file."""
    with _fresh_database(path, WINERY_SCHEMA, seed) as (connection, rng):
        blocks = _winery_vineyards(connection, rng)
        _winery_sales(connection, rng, _winery_cellar(connection, rng, blocks))
    return Path(path)


CONSTRUCTION_SCHEMA = """
CREATE TABLE trade (
    trade_cd TEXT PRIMARY KEY,
    trade_nm TEXT NOT NULL UNIQUE,
    day_rate_amt REAL NOT NULL,
    ticket_required INTEGER NOT NULL
);
CREATE TABLE worker (
    worker_id INTEGER PRIMARY KEY,
    first_nm TEXT NOT NULL,
    last_nm TEXT NOT NULL,
    trade_cd TEXT NOT NULL REFERENCES trade (trade_cd),
    cscs_no TEXT UNIQUE,
    hired_dt TEXT NOT NULL,
    subcontractor INTEGER NOT NULL,
    apprentice INTEGER NOT NULL
);
CREATE TABLE site (
    site_id INTEGER PRIMARY KEY,
    site_nm TEXT NOT NULL,
    client_nm TEXT NOT NULL,
    postcode TEXT NOT NULL,
    manager INTEGER NOT NULL,
    start_dt TEXT NOT NULL,
    planned_end_dt TEXT NOT NULL,
    budget_amt REAL NOT NULL,
    floor_area_m2 INTEGER,
    storeys INTEGER NOT NULL,
    listed INTEGER NOT NULL
);
CREATE TABLE supplier (
    sup_id INTEGER PRIMARY KEY,
    sup_nm TEXT NOT NULL,
    town TEXT NOT NULL,
    account_no TEXT NOT NULL UNIQUE,
    credit_days INTEGER NOT NULL,
    preferred INTEGER NOT NULL
);
CREATE TABLE material (
    mat_cd TEXT PRIMARY KEY,
    mat_nm TEXT NOT NULL,
    unit_cd TEXT NOT NULL,
    unit_cost_amt REAL NOT NULL,
    weight_kg REAL,
    hazardous INTEGER NOT NULL
);
CREATE TABLE delivery (
    del_no INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL REFERENCES site (site_id),
    sup_id INTEGER NOT NULL REFERENCES supplier (sup_id),
    del_dt TEXT NOT NULL,
    po_ref TEXT NOT NULL,
    received_by INTEGER,
    late INTEGER NOT NULL
);
CREATE TABLE delivery_line (
    del_no INTEGER NOT NULL REFERENCES delivery (del_no),
    line_no INTEGER NOT NULL,
    mat_cd TEXT NOT NULL REFERENCES material (mat_cd),
    qty REAL NOT NULL,
    line_amt REAL NOT NULL,
    damaged INTEGER NOT NULL,
    PRIMARY KEY (del_no, line_no)
);
CREATE TABLE plant (
    plant_id INTEGER PRIMARY KEY,
    plant_nm TEXT NOT NULL,
    fleet_no TEXT NOT NULL UNIQUE,
    weight_t REAL NOT NULL,
    engine_kw INTEGER,
    bucket_m3 REAL,
    hire_rate_amt REAL NOT NULL,
    owned INTEGER NOT NULL
);
CREATE TABLE plant_hire (
    site_id INTEGER NOT NULL REFERENCES site (site_id),
    plant_id INTEGER NOT NULL REFERENCES plant (plant_id),
    on_hire_dt TEXT NOT NULL,
    off_hire_dt TEXT,
    fuel_l REAL,
    operated INTEGER NOT NULL,
    PRIMARY KEY (site_id, plant_id, on_hire_dt)
);
CREATE TABLE timesheet (
    worker_id INTEGER NOT NULL REFERENCES worker (worker_id),
    work_dt TEXT NOT NULL,
    site_id INTEGER NOT NULL REFERENCES site (site_id),
    hrs REAL NOT NULL,
    overtime_hrs REAL NOT NULL,
    approved INTEGER NOT NULL,
    PRIMARY KEY (worker_id, work_dt)
);
"""

# code, name, day rate, needs a competence ticket
CONSTRUCTION_TRADES = [
    ("BRK", "Bricklayer", 220.0, 0), ("CAR", "Carpenter", 210.0, 0), ("ELE", "Electrician", 260.0, 1),
    ("PLM", "Plumber", 250.0, 1), ("GRW", "Groundworker", 180.0, 0), ("SCF", "Scaffolder", 230.0, 1),
    ("PLS", "Plasterer", 200.0, 0), ("LAB", "Labourer", 140.0, 0), ("MGR", "Site Manager", 320.0, 1),
]  # fmt: skip
CONSTRUCTION_SITES = [
    ("Riverside Apartments", "Northbank Homes"), ("St Anne's School Extension", "Calderdale Council"),
    ("Mill Lane Houses", "Northbank Homes"), ("Kirkgate Retail Unit", "Kirkgate Estates"),
    ("Hebden Road Surgery", "NHS Property Services"), ("Old Wool Exchange", "Heritage Trust"),
    ("Mill Lane Houses", "Pennine Living"), ("Canal Wharf Offices", "Kirkgate Estates"),
    ("Beacon Hill Care Home", "Beacon Care"), ("Station Car Park", "Calderdale Council"),
    ("Greenfield Primary", "Calderdale Council"), ("Park View Flats", "Pennine Living"),
]  # fmt: skip
# name, town; a name repeated in two towns
CONSTRUCTION_SUPPLIERS = [
    ("Pennine Builders Merchants", "Halifax"), ("Yorkshire Ready Mix", "Brighouse"),
    ("Calder Timber", "Sowerby Bridge"), ("Steel Stock Direct", "Bradford"),
    ("Pennine Builders Merchants", "Huddersfield"), ("Brick Hub", "Leeds"),
    ("Elland Plumbing Supplies", "Elland"), ("Sparks Wholesale", "Halifax"),
]  # fmt: skip
# code, name, unit, unit cost, weight per unit in kg, hazardous
CONSTRUCTION_MATERIALS = [
    ("CON-C30", "Ready-mix concrete C30", "m3", 118.0, 2400.0, 0), ("REB-12", "Rebar 12mm", "t", 780.0, 1000.0, 0),
    ("BRK-FAC", "Facing bricks", "each", 0.68, 2.3, 0), ("BLK-100", "Concrete blocks 100mm", "each", 1.45, 10.5, 0),
    ("SND-BLD", "Building sand", "t", 42.0, 1000.0, 0), ("CEM-25", "Cement", "bag", 6.9, 25.0, 1),
    ("PLB-125", "Plasterboard 12.5mm", "sheet", 9.8, 21.0, 0), ("TIM-47", "C24 timber 47x150", "m", 4.2, 3.2, 0),
    ("INS-100", "Insulation board 100mm", "sheet", 31.0, 3.1, 0),
    ("CAB-25", "Twin and earth cable 2.5mm", "m", 0.95, None, 0),
    ("PPE-22", "Copper pipe 22mm", "m", 7.4, 0.6, 0), ("PRM-5", "Bitumen primer", "l", 5.6, 1.0, 1),
]  # fmt: skip
# name, fleet prefix, weight in tonnes, engine kW (None: none), bucket in m3 (None: none), daily rate
CONSTRUCTION_PLANT = [
    ("Mini excavator", "EX", 1.8, 15, 0.04, 95.0), ("Tracked excavator", "EX", 13.5, 74, 0.6, 310.0),
    ("Forward tipping dumper", "DU", 3.1, 19, None, 85.0), ("Telehandler", "TH", 7.5, 55, None, 180.0),
    ("Vibrating roller", "RO", 2.6, 18, None, 90.0), ("Mobile tower scaffold", "TS", 0.3, None, None, 35.0),
    ("Site generator", "GN", 1.1, 20, None, 55.0), ("Wheeled loader", "WL", 9.8, 80, 1.5, 260.0),
]  # fmt: skip
CONSTRUCTION_FIRST = ["Adam", "Billy", "Connor", "Darren", "Ellie", "Gary", "Harry", "Jamie", "Kyle", "Lewis", "Mark",
                      "Nathan", "Paul", "Reece", "Sean", "Wayne"]  # fmt: skip
CONSTRUCTION_LAST = ["Armitage", "Barker", "Crossley", "Dyson", "Greenwood", "Haigh", "Holroyd", "Marsden", "Sutcliffe",
                     "Whiteley", "Wood", "Walker"]  # fmt: skip


def _construction_people(connection: sqlite3.Connection, rng: random.Random) -> list[int]:
    """Trades, 90 workers and 12 sites (each run by a site manager, a worker id no key declares); returns the sites'
    ids."""
    connection.executemany("INSERT INTO trade VALUES (?, ?, ?, ?)", CONSTRUCTION_TRADES)
    trades = [t[0] for t in CONSTRUCTION_TRADES]
    managers = []
    for worker_id in range(1, 91):
        trade = "MGR" if worker_id <= 8 else rng.choices(trades[:-1], [14, 12, 8, 7, 14, 5, 8, 20])[0]
        if trade == "MGR":
            managers.append(worker_id)
        connection.execute(
            "INSERT INTO worker VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (worker_id, rng.choice(CONSTRUCTION_FIRST), rng.choice(CONSTRUCTION_LAST), trade,
             None if rng.random() < 0.12 else f"{rng.randint(10000000, 99999999)}",
             (date(2012, 1, 1) + timedelta(days=rng.randint(0, 4700))).isoformat(),
             int(trade != "MGR" and rng.random() < 0.35), int(trade not in ("MGR", "LAB") and rng.random() < 0.12)),
        )  # fmt: skip
    sites = []
    for site_id, (name, client) in enumerate(CONSTRUCTION_SITES, start=1):
        start = date(2024, 1, 8) + timedelta(days=rng.randint(0, 500))
        storeys = rng.choice([1, 2, 2, 3, 4, 6])
        connection.execute(
            "INSERT INTO site VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (site_id, name, client, f"HX{rng.randint(1, 7)} {rng.randint(1, 9)}{rng.choice('ABDEFHJLNPRSTW')}"
             f"{rng.choice('ABDEFHJLNPRSTW')}", rng.choice(managers), start.isoformat(),
             (start + timedelta(days=rng.choice([120, 180, 270, 365, 540]))).isoformat(),
             round(rng.choice([0.4, 0.9, 1.6, 2.8, 4.5, 7.2]) * 1_000_000 * rng.uniform(0.9, 1.1), -3),
             None if rng.random() < 0.15 else storeys * rng.randint(150, 1400), storeys, int(rng.random() < 0.15)),
        )  # fmt: skip
        sites.append(site_id)
    return sites


def _construction_supply(connection: sqlite3.Connection, rng: random.Random, sites: list[int]) -> None:
    """Suppliers, materials, 600 deliveries (received by a worker id no key declares) and their lines."""
    for sup_id, (name, town) in enumerate(CONSTRUCTION_SUPPLIERS, start=1):
        connection.execute(
            "INSERT INTO supplier VALUES (?, ?, ?, ?, ?, ?)",
            (sup_id, name, town, f"ACC{rng.randint(100000, 999999)}", rng.choice([14, 30, 30, 60]),
             int(rng.random() < 0.4)),
        )  # fmt: skip
    connection.executemany("INSERT INTO material VALUES (?, ?, ?, ?, ?, ?)", CONSTRUCTION_MATERIALS)
    amounts = {"m3": (2, 40), "t": (1, 20), "each": (200, 4000), "bag": (10, 120), "sheet": (20, 200), "m": (50, 800),
               "l": (5, 100)}  # fmt: skip
    for del_no in range(1, 601):
        day = date(2024, 2, 1) + timedelta(days=rng.randint(0, 640))
        connection.execute(
            "INSERT INTO delivery VALUES (?, ?, ?, ?, ?, ?, ?)",
            (del_no, rng.choice(sites), rng.randint(1, len(CONSTRUCTION_SUPPLIERS)), day.isoformat(),
             f"PO-{day.year}-{del_no * 7 % 4999:04d}", None if rng.random() < 0.1 else rng.randint(1, 90),
             int(rng.random() < 0.18)),
        )  # fmt: skip
        lines = rng.sample(CONSTRUCTION_MATERIALS, rng.choices([1, 2, 3, 4], [40, 30, 20, 10])[0])
        for line_no, material in enumerate(lines, start=1):
            low, high = amounts[material[2]]
            counted = material[2] in ("each", "bag", "sheet")
            qty = rng.randint(low, high) if counted else round(rng.uniform(low, high), 1)
            connection.execute(
                "INSERT INTO delivery_line VALUES (?, ?, ?, ?, ?, ?)",
                (del_no, line_no, material[0], qty, round(qty * material[3] * rng.uniform(0.9, 1.05), 2),
                 int(rng.random() < 0.04)),
            )  # fmt: skip


def _construction_work(connection: sqlite3.Connection, rng: random.Random, sites: list[int]) -> None:
    """24 items of plant and their hires, and ~1,800 daily timesheets."""
    for plant_id in range(1, 25):
        name, prefix, weight, kw, bucket, rate = rng.choice(CONSTRUCTION_PLANT)
        connection.execute(
            "INSERT INTO plant VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (plant_id, name, f"{prefix}{plant_id * 11:03d}", weight, kw, bucket, rate, int(rng.random() < 0.5)),
        )
    for _ in range(160):
        on = date(2024, 2, 1) + timedelta(days=rng.randint(0, 620))
        off = None if rng.random() < 0.1 else on + timedelta(days=rng.randint(1, 60))
        try:
            connection.execute(
                "INSERT INTO plant_hire VALUES (?, ?, ?, ?, ?, ?)",
                (rng.choice(sites), rng.randint(1, 24), on.isoformat(), off.isoformat() if off else None,
                 None if off is None else round(rng.uniform(20, 900), 0), int(rng.random() < 0.4)),
            )  # fmt: skip
        except sqlite3.IntegrityError:
            continue
    for worker_id in range(1, 91):
        site = rng.choice(sites)
        for offset in sorted(rng.sample(range(0, 600), rng.randint(8, 30))):
            if rng.random() < 0.15:
                site = rng.choice(sites)
            hours = rng.choice([4.0, 7.5, 8.0, 8.0, 8.0, 9.0, 10.0])
            connection.execute(
                "INSERT INTO timesheet VALUES (?, ?, ?, ?, ?, ?)",
                (worker_id, (date(2024, 2, 5) + timedelta(days=offset)).isoformat(), site, hours,
                 rng.choice([0.0, 0.0, 0.0, 1.0, 2.0]) if hours >= 8 else 0.0, int(rng.random() < 0.9)),
            )  # fmt: skip


def build_construction_database(path: str | Path, seed: int = 35) -> Path:
    """Write the building contractor's database to `path` (replacing it) from `seed`; the same seed gives the same
    file."""
    with _fresh_database(path, CONSTRUCTION_SCHEMA, seed) as (connection, rng):
        sites = _construction_people(connection, rng)
        _construction_supply(connection, rng, sites)
        _construction_work(connection, rng, sites)
    return Path(path)


BUILDERS = {
    "hotel": build_hotel_database,
    "football": build_football_database,
    "clinic": build_clinic_database,
    "library": build_library_database,
    "logistics": build_logistics_database,
    "museum": build_museum_database,
    "school": build_school_database,
    "airline": build_airline_database,
    "retail": build_retail_database,
    "transit": build_transit_database,
    "grants": build_grants_database,
    "vet": build_vet_database,
    "festival": build_festival_database,
    "brewery": build_brewery_database,
    "energy": build_energy_database,
    "telecom": build_telecom_database,
    "farm": build_farm_database,
    "estate": build_estate_database,
    "gym": build_gym_database,
    "conference": build_conference_database,
    "fleet": build_fleet_database,
    "restaurant": build_restaurant_database,
    "tracker": build_tracker_database,
    "rental": build_rental_database,
    "charity": build_charity_database,
    "orchestra": build_orchestra_database,
    "bakery": build_bakery_database,
    "pharmacy": build_pharmacy_database,
    "marina": build_marina_database,
    "ferry": build_ferry_database,
    "cinema": build_cinema_database,
    "campsite": build_campsite_database,
    "auction": build_auction_database,
    "insurer": build_insurer_database,
    "bikeshare": build_bikeshare_database,
    "winery": build_winery_database,
    "construction": build_construction_database,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--database", choices=sorted(BUILDERS), default="hotel")
    options = parser.parse_args()
    BUILDERS[options.database](options.out, options.seed)
    print(options.out)


if __name__ == "__main__":
    main()
