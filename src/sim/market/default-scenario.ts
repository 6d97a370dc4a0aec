/**
 * The built-in scenario: 36 games over six leagues and the four market types, a handful of
 * makers, noise takers and informed takers. `config/scenarios/default.yaml` is the same
 * scenario written out with comments (a test keeps them equal). It is a plain literal (not
 * typed as `Scenario`) because the schema takes its defaults from it; it is assignable to
 * `Scenario` and parses to itself.
 */
export const DEFAULT_SCENARIO = {
  name: 'default',
  description: 'Six leagues, 36 games on a rolling schedule, four makers, three noise takers, two informed takers.',
  horizonMinutes: 240,
  pace: {
    tickSeconds: 5,
    preGameMinutes: 240,
    makerRefreshSeconds: 20,
    noiseTakersPerMinute: 30,
    informedTakersPerMinute: 6,
  },
  population: {
    balance: 100_000_000,
    makers: {
      count: 4,
      margin: 0.02,
      liveMarginMultiplier: 2,
      tolerance: 0.01,
      minSize: 50,
      maxSize: 2000,
      expirationMinutes: 30,
    },
    noiseTakers: {
      count: 3,
      minSize: 20,
      maxSize: 500,
      fillAndKillShare: 0.5,
      expirationMinutes: 5,
    },
    informedTakers: {
      count: 2,
      threshold: 0.01,
      minSize: 100,
      maxSize: 1500,
      scanGames: 12,
    },
  },
  model: {
    preGameDrift: 1,
    newsPerHour: 0.3,
    liveJumpsPerHour: 0.5,
  },
  leagues: [
    {
      league: 'NBA',
      sport: 'basketball' as const,
      games: 8,
      durationMinutes: 150,
      teams: [
        'Boston Celtics', 'New York Knicks', 'Milwaukee Bucks', 'Cleveland Cavaliers', 'Philadelphia 76ers', 'Miami Heat',
        'Denver Nuggets', 'Golden State Warriors', 'Los Angeles Lakers', 'Phoenix Suns', 'Dallas Mavericks', 'Oklahoma City Thunder',
        'Minnesota Timberwolves', 'Sacramento Kings', 'Chicago Bulls', 'Atlanta Hawks',
      ],
    },
    {
      league: 'NFL',
      sport: 'football' as const,
      games: 6,
      durationMinutes: 195,
      teams: [
        'Kansas City Chiefs', 'Buffalo Bills', 'Baltimore Ravens', 'Cincinnati Bengals', 'Philadelphia Eagles', 'Dallas Cowboys',
        'San Francisco 49ers', 'Detroit Lions', 'Green Bay Packers', 'Miami Dolphins', 'Houston Texans', 'Los Angeles Rams',
      ],
    },
    {
      league: 'NHL',
      sport: 'hockey' as const,
      games: 6,
      durationMinutes: 150,
      teams: [
        'Boston Bruins', 'Toronto Maple Leafs', 'Florida Panthers', 'New York Rangers', 'Carolina Hurricanes', 'Colorado Avalanche',
        'Dallas Stars', 'Edmonton Oilers', 'Vegas Golden Knights', 'Vancouver Canucks', 'Winnipeg Jets', 'Tampa Bay Lightning',
      ],
    },
    {
      league: 'MLB',
      sport: 'baseball' as const,
      games: 6,
      durationMinutes: 180,
      teams: [
        'New York Yankees', 'Los Angeles Dodgers', 'Atlanta Braves', 'Houston Astros', 'Philadelphia Phillies', 'Baltimore Orioles',
        'Texas Rangers', 'Tampa Bay Rays', 'Seattle Mariners', 'Toronto Blue Jays', 'San Diego Padres', 'Milwaukee Brewers',
      ],
    },
    {
      league: 'EPL',
      sport: 'soccer' as const,
      games: 6,
      durationMinutes: 115,
      teams: [
        'Arsenal', 'Manchester City', 'Liverpool', 'Chelsea', 'Tottenham Hotspur', 'Manchester United',
        'Newcastle United', 'Aston Villa', 'Brighton', 'West Ham United', 'Brentford', 'Fulham',
      ],
    },
    {
      league: 'MLS',
      sport: 'soccer' as const,
      games: 4,
      durationMinutes: 115,
      teams: [
        'Inter Miami', 'LA Galaxy', 'Columbus Crew', 'FC Cincinnati', 'Seattle Sounders', 'Los Angeles FC',
        'Philadelphia Union', 'Atlanta United',
      ],
    },
  ],
};
